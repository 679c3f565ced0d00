// The link rules shared by resource create, edit, bulk edits and merge: every id a write names
// must exist (404 naming the first that does not), and a given set replaces the stored one.
import { requireFound } from '../common/named.js';
import type { ReferencedTable, ResourceLinkRepository } from './links.repository.js';
import type { Visibility } from '../auth/visibility.js';

export interface LinkSets {
  Tags?: number[];
  Groups?: number[];
  Notes?: number[];
}

/** Throws 404 naming the first id of `table` that does not exist or that `vis` may not see. */
export async function requireIds(links: ResourceLinkRepository, table: ReferencedTable, ids: readonly number[], label: string, vis: Visibility): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length) requireFound(label, unique, await links.existing(table, unique, vis));
}

/** Replaces each given set (absent sets are left alone). Ids must have been checked. */
export async function replaceLinks(links: ResourceLinkRepository, resourceId: number, sets: LinkSets, vis: Visibility): Promise<void> {
  if (sets.Tags !== undefined) await links.replace('tags', resourceId, sets.Tags, vis);
  if (sets.Groups !== undefined) await links.replace('groups', resourceId, sets.Groups, vis);
  if (sets.Notes !== undefined) await links.replace('notes', resourceId, sets.Notes, vis);
}
