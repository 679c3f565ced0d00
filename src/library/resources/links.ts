// Reference checks and join-table writes shared by resource create, edit, bulk edits and merge.
import type { Transaction } from 'kysely';
import { notFound } from '../../core/http/errors.js';
import type { Database } from '../schema/database.js';

type Trx = Transaction<Database>;

/** Throws 404 naming the first id of `table` that does not exist. */
export async function requireIds(trx: Trx | import('kysely').Kysely<Database>, table: 'tags' | 'groups' | 'notes' | 'resources', ids: number[], label: string): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await trx.selectFrom(table).select('id').where('id', 'in', unique).execute();
  if (found.length !== unique.length) {
    const have = new Set(found.map((r) => r.id));
    throw notFound(`${label} ${unique.find((i) => !have.has(i))} not found`);
  }
}

export interface LinkSets {
  Tags?: number[];
  Groups?: number[];
  Notes?: number[];
}

/** Replaces each given set (absent sets are left alone). Ids must have been checked. */
export async function replaceLinks(trx: Trx, resourceId: number, links: LinkSets): Promise<void> {
  if (links.Tags !== undefined) {
    await trx.deleteFrom('resource_tags').where('resource_id', '=', resourceId).execute();
    const tags = [...new Set(links.Tags)];
    if (tags.length) await trx.insertInto('resource_tags').values(tags.map((tag_id) => ({ resource_id: resourceId, tag_id }))).execute();
  }
  if (links.Groups !== undefined) {
    await trx.deleteFrom('groups_related_resources').where('resource_id', '=', resourceId).execute();
    const groups = [...new Set(links.Groups)];
    if (groups.length) await trx.insertInto('groups_related_resources').values(groups.map((group_id) => ({ resource_id: resourceId, group_id }))).execute();
  }
  if (links.Notes !== undefined) {
    await trx.deleteFrom('resource_notes').where('resource_id', '=', resourceId).execute();
    const notes = [...new Set(links.Notes)];
    if (notes.length) await trx.insertInto('resource_notes').values(notes.map((note_id) => ({ resource_id: resourceId, note_id }))).execute();
  }
}

/** Adds links many resources × many targets, skipping the ones that exist. */
export async function addLinks(trx: Trx, table: 'resource_tags' | 'groups_related_resources' | 'resource_notes', resourceIds: number[], targetIds: number[]): Promise<void> {
  const col = table === 'resource_tags' ? 'tag_id' : table === 'resource_notes' ? 'note_id' : 'group_id';
  if (resourceIds.length === 0 || targetIds.length === 0) return;
  await trx
    .deleteFrom(table)
    .where('resource_id', 'in', resourceIds)
    .where(col as 'tag_id', 'in', targetIds)
    .execute();
  const rows = resourceIds.flatMap((resource_id) => targetIds.map((t) => ({ resource_id, [col]: t })));
  for (let i = 0; i < rows.length; i += 500) await trx.insertInto(table).values(rows.slice(i, i + 500) as never).execute();
}
