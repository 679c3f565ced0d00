// Small writes shared by the group, note and resource phases.
import { checkCarrierMeta, type CarrierRef } from '../../common/content.js';
import type { ApplyRun, Db } from './run.js';

type TagJoin = { table: 'group_tags'; col: 'group_id' } | { table: 'note_tags'; col: 'note_id' } | { table: 'resource_tags'; col: 'resource_id' };

export const GROUP_TAGS: TagJoin = { table: 'group_tags', col: 'group_id' };
export const NOTE_TAGS: TagJoin = { table: 'note_tags', col: 'note_id' };
export const RESOURCE_TAGS: TagJoin = { table: 'resource_tags', col: 'resource_id' };

/** Adds tags (skipping ones already there); `replace` removes the others first. */
export async function setTags(db: Db, join: TagJoin, id: number, tagIds: number[], replace = false): Promise<void> {
  if (replace) await db.deleteFrom(join.table).where(join.col as 'group_id', '=', id).execute();
  if (tagIds.length === 0) return;
  await db
    .insertInto(join.table as 'group_tags')
    .values(tagIds.map((tag_id) => ({ [join.col]: id, tag_id }) as { group_id: number; tag_id: number }))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Merge policy for meta: the existing values win, keys only the archive has are added. */
export function mergedMeta(existing: string, incoming: Record<string, unknown>): Record<string, unknown> {
  let current: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(existing);
    if (v && typeof v === 'object' && !Array.isArray(v)) current = v as Record<string, unknown>;
  } catch {
    /* unreadable stored meta: the archive's fills it */
  }
  return { ...incoming, ...current };
}

/** Imported meta is kept even when the carrier's MetaSchema disagrees; the plan's user hears of it. */
export async function checkImportedMeta(run: ApplyRun, db: Db, carrier: CarrierRef, carrierId: number | null, meta: Record<string, unknown>, what: string): Promise<void> {
  try {
    await checkCarrierMeta(db, carrier, carrierId, meta);
  } catch (e) {
    run.warn(`${what}: meta does not match the ${carrier.label}'s MetaSchema (${(e as Error).message}); imported as it was`);
  }
}

/** Lenient URL check like the group form's: unparsable text is dropped. */
export function importedUrl(run: ApplyRun, raw: string | null, what: string): string | null {
  const text = (raw ?? '').trim();
  if (text === '') return null;
  try {
    new URL(text, 'http://relative.invalid');
    return text;
  } catch {
    run.warn(`${what}: URL "${text.slice(0, 80)}" is not valid and was dropped`);
    return null;
  }
}
