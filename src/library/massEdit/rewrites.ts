// Before-hook rewrites of bulk items (library-plugins.md §16.4: "Returning a table replaces the
// data for later hooks and for the operation"; the operation reads back name, description and
// meta). A bulk update hands each item to the hooks as `{id, name, description, meta}`; the
// fields a hook changed are validated like a single edit's and written before the bulk work.
import type { ChangeData } from '../common/changes.js';
import type { ContentTable } from '../common/content.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { ContentRepository } from './repository.js';

const FIELDS = ['name', 'description', 'meta'] as const;

/** A copy of the items as they were offered to the hooks, to tell their rewrites apart. */
export function snapshotItems(items: readonly ChangeData[]): Map<number, ChangeData> {
  return new Map(items.map((i) => [i.id, { ...i }]));
}

/** The validated fields a hook changed on `item` (empty when none). */
export function rewrittenFields(item: ChangeData, offered: ChangeData | undefined): { name?: string; description?: string; meta?: string } {
  const out: { name?: string; description?: string; meta?: string } = {};
  if (!offered) return out;
  for (const f of FIELDS) {
    const v = item[f];
    if (typeof v !== 'string' || v === offered[f]) continue;
    out[f] = f === 'name' ? validName(v) : f === 'meta' ? jsonObjectText(v || '{}', 'Meta') : v;
  }
  return out;
}

/** Writes every item's rewritten fields; returns the ids written. */
export async function writeRewrites(repo: ContentRepository, table: ContentTable, items: readonly ChangeData[], offered: Map<number, ChangeData>): Promise<number[]> {
  const written: number[] = [];
  for (const item of items) {
    const fields = rewrittenFields(item, offered.get(item.id));
    if (Object.keys(fields).length === 0) continue;
    await repo.writeHookFields(table, item.id, fields);
    written.push(item.id);
  }
  return written;
}
