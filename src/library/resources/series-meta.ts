// Series membership and metadata inheritance (companion §3.11). A member's effective `meta` is
// the series meta overlaid by its `own_meta` at the top level; an own value of null removes the
// key for that member (explicit-null override).
import { isDeepStrictEqual } from 'node:util';
import { sql, type Transaction } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import { validName } from '../common/names.js';
import type { Database } from '../schema/database.js';
import type { Actor } from '../auth/principal.js';

type Trx = Transaction<Database>;
type Obj = Record<string, unknown>;

export function effectiveMeta(series: Obj, own: Obj): Obj {
  const merged: Obj = { ...series, ...own };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  return merged;
}

/** What a joining member keeps as its own: keys the series lacks or holds differently. */
export function ownPart(series: Obj, meta: Obj): Obj {
  const own: Obj = {};
  for (const [k, v] of Object.entries(meta)) if (!(k in series) || !isDeepStrictEqual(series[k], v)) own[k] = v;
  return own;
}

/** An edit of a member's meta: like ownPart, plus null overrides for series keys left out. */
export function ownPartOfEdit(series: Obj, meta: Obj): Obj {
  const own = ownPart(series, meta);
  for (const k of Object.keys(series)) if (!(k in meta)) own[k] = null;
  return own;
}

/** Finds the series of a slug or creates it (insert-if-absent on the unique slug, then read). */
export async function seriesForSlug(trx: Trx, actor: Actor, slugText: string): Promise<number> {
  const slug = validName(slugText, 'SeriesSlug');
  const now = nowIso();
  await trx
    .insertInto('series')
    .values({ created_at: now, updated_at: now, created_by_user_id: actor.principal.userId, name: slug, slug, meta: '{}' })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
  const row = await trx.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
  return row.id;
}

export async function requireSeries(trx: Trx, id: number): Promise<void> {
  const row = await trx.selectFrom('series').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`series ${id} not found`);
}

/**
 * Meta columns of a resource that joins `seriesId` with `meta` as its wanted effective meta.
 * The first member of a series with empty meta donates its whole meta (claimed with a
 * conditional update, so one concurrent uploader wins).
 */
export async function joinSeries(trx: Trx, seriesId: number, meta: Obj): Promise<{ meta: string; own_meta: string }> {
  if (Object.keys(meta).length > 0) {
    const claimed = await trx
      .updateTable('series')
      .set({ meta: JSON.stringify(meta), updated_at: nowIso() })
      .where('id', '=', seriesId)
      .where(sql<boolean>`(CAST(meta AS text) = '{}' OR meta IS NULL)`)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) return { meta: JSON.stringify(meta), own_meta: '{}' };
  }
  const series = await trx.selectFrom('series').select('meta').where('id', '=', seriesId).executeTakeFirstOrThrow();
  const shared = parseJson<Obj>(series.meta, {});
  const own = ownPart(shared, meta);
  return { meta: JSON.stringify(effectiveMeta(shared, own)), own_meta: JSON.stringify(own) };
}

/** Meta columns after editing a member's meta (series keys left out become null overrides). */
export async function editMemberMeta(trx: Trx, seriesId: number, meta: Obj): Promise<{ meta: string; own_meta: string }> {
  const series = await trx.selectFrom('series').select('meta').where('id', '=', seriesId).executeTakeFirstOrThrow();
  const shared = parseJson<Obj>(series.meta, {});
  const own = ownPartOfEdit(shared, meta);
  return { meta: JSON.stringify(effectiveMeta(shared, own)), own_meta: JSON.stringify(own) };
}

/** Deletes the series when no resource is left in it. */
export async function dropSeriesIfEmpty(trx: Trx, seriesId: number | null): Promise<void> {
  if (seriesId === null) return;
  const member = await trx.selectFrom('resources').select('id').where('series_id', '=', seriesId).limit(1).executeTakeFirst();
  if (!member) await trx.deleteFrom('series').where('id', '=', seriesId).execute();
}

/** Resolves SeriesSlug / SeriesId of a write into a series id (undefined = unchanged). */
export async function resolveSeries(trx: Trx, actor: Actor, input: { SeriesSlug?: string; SeriesId?: number }): Promise<number | null | undefined> {
  if (input.SeriesSlug !== undefined && input.SeriesSlug.trim() !== '') return seriesForSlug(trx, actor, input.SeriesSlug);
  if (input.SeriesId !== undefined) {
    if (input.SeriesId === 0) return null;
    if (input.SeriesId < 0) throw badRequest('SeriesId must be a positive integer');
    await requireSeries(trx, input.SeriesId);
    return input.SeriesId;
  }
  return undefined;
}
