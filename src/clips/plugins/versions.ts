// Update rules (companion §8.12): semantic-version comparison and what counts as a change of
// the permissions a plugin asks for.
import type { Manifest } from './manifest.js';

interface Semver {
  core: [number, number, number];
  pre: string | null;
}

function parse(v: string): Semver | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  return m ? { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? null } : null;
}

function comparePre(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    const na = /^\d+$/.test(pa[i]) ? Number(pa[i]) : null;
    const nb = /^\d+$/.test(pb[i]) ? Number(pb[i]) : null;
    if (na !== null && nb !== null) {
      if (na !== nb) return na - nb;
    } else if (na !== null) return -1;
    else if (nb !== null) return 1;
    else if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}

/** True when `remote` is a newer version than `local`; unparsable versions are never newer. */
export function isNewer(remote: string, local: string): boolean {
  const r = parse(remote);
  const l = parse(local);
  if (!r || !l) return false;
  for (let i = 0; i < 3; i++) if (r.core[i] !== l.core[i]) return r.core[i] > l.core[i];
  if (r.pre === l.pre) return false;
  if (r.pre === null) return true;
  if (l.pre === null) return false;
  return comparePre(r.pre, l.pre) > 0;
}

/** Domains added or removed, methods changed, file access gained, clipboard gained, new events. */
export function permissionsChanged(before: Manifest, after: Manifest): boolean {
  const a = Object.keys(before.network).sort();
  const b = Object.keys(after.network).sort();
  if (a.join('\n') !== b.join('\n')) return true;
  for (const host of a) {
    if ([...before.network[host]].sort().join(',') !== [...after.network[host]].sort().join(',')) return true;
  }
  if ((!before.filesystem.read && after.filesystem.read) || (!before.filesystem.write && after.filesystem.write)) return true;
  if (!before.clipboard && after.clipboard) return true;
  return after.events.some((e) => !before.events.includes(e));
}
