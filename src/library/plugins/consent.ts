// Consent records ("grants") and the widening rules (library-plugins.md §7): enabling a plugin
// records what it declares; a later load that asks for more is refused until re-enabled.
import { CAPABILITY_LABELS, effectiveCapabilities, isCapability, type CapabilityId } from './capabilities.js';
import { capabilitiesOf, networkDisplay, type PluginHeader } from './manifest.js';
import { parseNetworkRule } from './network.js';

export interface Grants {
  legacy?: boolean;
  api_version?: number;
  capabilities?: CapabilityId[];
  network?: string[];
  allow_private_hosts?: boolean;
}

export class CorruptGrantsError extends Error {}

/** The record enabling this plugin writes (zero values omitted). */
export function grantsOf(header: PluginHeader): Grants {
  const m = header.manifest;
  if (!m) return { legacy: true };
  const g: Grants = { api_version: m.apiVersion };
  if (m.capabilities.length) g.capabilities = capabilitiesOf(header);
  const network = networkDisplay(header);
  if (network.length) g.network = network;
  if (m.allowPrivateHosts) g.allow_private_hosts = true;
  return g;
}

/** null: no record. Throws CorruptGrantsError for a record that exists but cannot be read. */
export function parseGrants(text: string | null): Grants | null {
  if (text === null || text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CorruptGrantsError('the stored consent record is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CorruptGrantsError('the stored consent record is not an object');
  const g = value as Grants;
  for (const n of g.network ?? []) {
    try {
      parseNetworkRule(n);
    } catch {
      throw new CorruptGrantsError(`the stored consent record has an unreadable network entry "${n}"`);
    }
  }
  return g;
}

/** Descriptions of every way the declaration goes beyond the record; empty = loads quietly. */
export function widenings(record: Grants, header: PluginHeader): string[] {
  const m = header.manifest;
  const out: string[] = [];
  if (!m) {
    if (!record.legacy) out.push('it no longer declares a manifest (it would run with every capability)');
    return out;
  }
  if (record.legacy) {
    if (m.allowPrivateHosts) out.push('it now asks to reach private network addresses named in its network list');
    return out;
  }
  const had = new Set(effectiveCapabilities((record.capabilities ?? []).filter(isCapability)));
  const added = m.capabilities.filter((c) => !had.has(c));
  if (added.length) out.push(`new capabilities: ${added.map((c) => `${c} (${CAPABILITY_LABELS[c]})`).join(', ')}`);
  const recorded = new Set((record.network ?? []).map((n) => parseNetworkRule(n).canonical));
  if (recorded.size > 0) {
    if (!m.network) out.push('it dropped its network allowlist (it could now reach any public host)');
    else {
      const extra = networkDisplay(header).filter((n) => !recorded.has(n));
      if (extra.length) out.push(`new network hosts: ${extra.join(', ')}`);
    }
  }
  if (m.allowPrivateHosts && !record.allow_private_hosts) out.push('it now asks to reach private network addresses named in its network list');
  if (m.apiVersion > (record.api_version ?? 0)) out.push(`it raised its api_version (${record.api_version ?? 0} → ${m.apiVersion})`);
  return out;
}
