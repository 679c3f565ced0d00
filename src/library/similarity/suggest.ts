// Suggested tags (contract: Suggested tags). Three sources of evidence, each scored on its own
// scale and combined as 0.5·similar + 0.3·cooccurrence + 0.2·group; a missing source adds zero
// and the weights are never redistributed. The target resource is never evidence.

export interface Neighbour {
  /** pHash (or legacy) distance; ignored for legacy exact-hash matches. */
  distance: number;
  legacy: boolean;
  tagIds: number[];
}

export interface TagUsage {
  tagId: number;
  count: number;
}

export interface Evidence {
  applied: Set<number>;
  /** Up to 50 similar neighbours, nearest first. */
  neighbours: Neighbour[];
  /** Co-occurrence: how many resources matched, and per tag how many of them carry it (top 20 eligible). */
  cooccurrence: { matching: number; usage: TagUsage[] } | null;
  /** Owner-group popularity: tagged resources in the owner group, and per-tag usage (top 20 eligible). */
  group: { tagged: number; usage: TagUsage[] } | null;
}

export interface Suggestion {
  ID: number;
  Name: string;
  score: number;
  sources: ('similar' | 'cooccurrence' | 'group')[];
}

export const SUGGESTION_LIMIT = 8;
export const SOURCE_LIMIT = 20;
export const NEIGHBOUR_LIMIT = 50;

export const neighbourWeight = (n: Neighbour) => (n.legacy ? 0.25 : Math.pow(2, -n.distance / 3));

export function scoreSuggestions(e: Evidence, names: Map<number, string>): Suggestion[] {
  const similar = new Map<number, number>();
  const tagged = e.neighbours.filter((n) => n.tagIds.length > 0);
  const total = tagged.reduce((s, n) => s + neighbourWeight(n), 0);
  for (const n of tagged) {
    for (const t of new Set(n.tagIds)) if (!e.applied.has(t)) similar.set(t, (similar.get(t) ?? 0) + neighbourWeight(n));
  }
  for (const [t, w] of similar) similar.set(t, w / (total + 2));

  const co = new Map<number, number>();
  if (e.cooccurrence) for (const u of e.cooccurrence.usage) if (!e.applied.has(u.tagId)) co.set(u.tagId, u.count / (e.cooccurrence.matching + 5));
  const group = new Map<number, number>();
  if (e.group) for (const u of e.group.usage) if (!e.applied.has(u.tagId)) group.set(u.tagId, u.count / (e.group.tagged + 5));

  const candidates = new Set([...similar.keys(), ...co.keys(), ...group.keys()]);
  const out: Suggestion[] = [];
  for (const id of candidates) {
    const s = similar.get(id) ?? 0;
    const c = co.get(id) ?? 0;
    const g = group.get(id) ?? 0;
    const sources: Suggestion['sources'] = [];
    if (s > 0) sources.push('similar');
    if (c > 0) sources.push('cooccurrence');
    if (g > 0) sources.push('group');
    if (sources.length === 0) continue;
    out.push({ ID: id, Name: names.get(id) ?? '', score: 0.5 * s + 0.3 * c + 0.2 * g, sources });
  }
  out.sort((a, b) => b.score - a.score || (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0) || a.ID - b.ID);
  return out.slice(0, SUGGESTION_LIMIT);
}
