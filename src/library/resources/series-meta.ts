// Series membership and metadata inheritance (companion §3.11). A member's effective `meta` is
// the series meta overlaid by its `own_meta` at the top level; an own value of null removes the
// key for that member (explicit-null override).
import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from 'kysely';
import { dialectOf } from '../../core/db/dialect/index.js';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import { validName } from '../common/names.js';
import type { Database } from '../schema/database.js';
import type { Actor } from '../auth/principal.js';
import { SeriesMembershipRepository } from './series.repository.js';

type Obj = Record<string, unknown>;
/** The series statements, or an open transaction to run them in (callers outside this feature). */
type SeriesAccess = SeriesMembershipRepository | Transaction<Database>;

function membership(access: SeriesAccess): SeriesMembershipRepository {
  return access instanceof SeriesMembershipRepository ? access : new SeriesMembershipRepository(access, dialectOf(access));
}

export interface MetaColumns {
  meta: string;
  own_meta: string;
}

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
export async function seriesForSlug(series: SeriesMembershipRepository, actor: Actor, slugText: string): Promise<number> {
  const slug = validName(slugText, 'SeriesSlug');
  const now = nowIso();
  return series.ensure({ created_at: now, updated_at: now, created_by_user_id: actor.principal.userId, name: slug, slug, meta: '{}' });
}

export async function requireSeries(series: SeriesMembershipRepository, id: number): Promise<void> {
  if (!(await series.exists(id))) throw notFound(`series ${id} not found`);
}

/**
 * Meta columns of a resource that joins `seriesId` with `meta` as its wanted effective meta.
 * The first member of a series with empty meta donates its whole meta (claimed with a
 * conditional update, so one concurrent uploader wins).
 */
export async function joinSeries(access: SeriesAccess, seriesId: number, meta: Obj): Promise<MetaColumns> {
  const series = membership(access);
  if (Object.keys(meta).length > 0 && (await series.claimMeta(seriesId, JSON.stringify(meta)))) return { meta: JSON.stringify(meta), own_meta: '{}' };
  const shared = parseJson<Obj>(await series.metaOf(seriesId), {});
  const own = ownPart(shared, meta);
  return { meta: JSON.stringify(effectiveMeta(shared, own)), own_meta: JSON.stringify(own) };
}

/** Meta columns after editing a member's meta (series keys left out become null overrides). */
export async function editMemberMeta(access: SeriesAccess, seriesId: number, meta: Obj): Promise<MetaColumns> {
  const shared = parseJson<Obj>(await membership(access).metaOf(seriesId), {});
  const own = ownPartOfEdit(shared, meta);
  return { meta: JSON.stringify(effectiveMeta(shared, own)), own_meta: JSON.stringify(own) };
}

/** Resolves SeriesSlug / SeriesId of a write into a series id (undefined = unchanged). */
export async function resolveSeries(series: SeriesMembershipRepository, actor: Actor, input: { SeriesSlug?: string; SeriesId?: number }): Promise<number | null | undefined> {
  if (input.SeriesSlug !== undefined && input.SeriesSlug.trim() !== '') return seriesForSlug(series, actor, input.SeriesSlug);
  if (input.SeriesId !== undefined) {
    if (input.SeriesId === 0) return null;
    if (input.SeriesId < 0) throw badRequest('SeriesId must be a positive integer');
    await requireSeries(series, input.SeriesId);
    return input.SeriesId;
  }
  return undefined;
}
