// Loads the evidence for suggested tags from the database: a few grouped SQL statements per
// request, each bounded (50 neighbours, 20 tags per source).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import { similarPair, type SimilarityThresholds } from '../resources/filters.js';
import { NEIGHBOUR_LIMIT, SOURCE_LIMIT, type Evidence, type Neighbour, type TagUsage } from './suggest.js';

type Db = Kysely<Database>;

/** Similar resources within the thresholds, nearest first, then identical legacy dHashes. */
export async function similarNeighbours(db: Db, resourceId: number, t: SimilarityThresholds, limit = NEIGHBOUR_LIMIT): Promise<{ id: number; distance: number; legacy: boolean }[]> {
  const pairs = await sql<{ id: number; distance: number }>`
    SELECT CASE WHEN p.resource_id1 = ${resourceId} THEN p.resource_id2 ELSE p.resource_id1 END AS id,
           COALESCE(p.p_distance, p.hamming_distance) AS distance
    FROM resource_similarities p
    WHERE (p.resource_id1 = ${resourceId} OR p.resource_id2 = ${resourceId}) AND ${similarPair(t)}
    ORDER BY distance, id
    LIMIT ${limit}`.execute(db);
  const out = pairs.rows.map((r) => ({ id: Number(r.id), distance: Number(r.distance), legacy: false }));
  if (out.length < limit) {
    const seen = new Set(out.map((n) => n.id));
    const legacy = await sql<{ id: number }>`
      SELECT h2.resource_id AS id FROM image_hashes h1
      JOIN image_hashes h2 ON h2.d_hash = h1.d_hash AND h2.resource_id <> h1.resource_id AND h2.status = 'ok'
      WHERE h1.resource_id = ${resourceId} AND h1.d_hash <> '' AND h1.status = 'ok'
      ORDER BY h2.resource_id LIMIT ${limit}`.execute(db);
    for (const r of legacy.rows) {
      if (out.length >= limit) break;
      if (!seen.has(Number(r.id))) out.push({ id: Number(r.id), distance: 0, legacy: true });
    }
  }
  return out;
}

async function tagsOf(db: Db, ids: number[]): Promise<Map<number, number[]>> {
  const m = new Map<number, number[]>();
  if (ids.length === 0) return m;
  const rows = await db.selectFrom('resource_tags').select(['resource_id', 'tag_id']).where('resource_id', 'in', ids).execute();
  for (const r of rows) m.set(r.resource_id, [...(m.get(r.resource_id) ?? []), r.tag_id]);
  return m;
}

/** Top eligible tags of a resource set, by usage, then name, then id. */
async function topUsage(db: Db, resourceSet: ReturnType<typeof sql>, applied: number[]): Promise<TagUsage[]> {
  const notApplied = applied.length ? sql`AND t.tag_id NOT IN (${sql.join(applied)})` : sql``;
  const r = await sql<{ tag_id: number; n: number }>`
    SELECT t.tag_id, count(*) AS n FROM resource_tags t JOIN tags g ON g.id = t.tag_id
    WHERE t.resource_id IN (${resourceSet}) ${notApplied}
    GROUP BY t.tag_id, g.name ORDER BY n DESC, g.name, t.tag_id LIMIT ${SOURCE_LIMIT}`.execute(db);
  return r.rows.map((x) => ({ tagId: Number(x.tag_id), count: Number(x.n) }));
}

export async function loadEvidence(db: Db, target: { id: number; owner_id: number | null }, t: SimilarityThresholds): Promise<Evidence> {
  const appliedRows = await db.selectFrom('resource_tags').select('tag_id').where('resource_id', '=', target.id).execute();
  const applied = appliedRows.map((r) => r.tag_id);

  const found = await similarNeighbours(db, target.id, t);
  const tags = await tagsOf(db, found.map((n) => n.id));
  const neighbours: Neighbour[] = found.map((n) => ({ distance: n.distance, legacy: n.legacy, tagIds: tags.get(n.id) ?? [] }));

  let cooccurrence: Evidence['cooccurrence'] = null;
  if (applied.length > 0) {
    const sharing = (owner: number | null) => sql`
      SELECT DISTINCT rt.resource_id FROM resource_tags rt
      ${owner === null ? sql`` : sql`JOIN resources r ON r.id = rt.resource_id AND r.owner_id = ${owner}`}
      WHERE rt.tag_id IN (${sql.join(applied)}) AND rt.resource_id <> ${target.id}`;
    const countOf = async (owner: number | null) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM (${sharing(owner)}) s`.execute(db)).rows[0].n);
    let owner: number | null = null;
    let matching = 0;
    if (target.owner_id !== null) {
      matching = await countOf(target.owner_id);
      if (matching >= 5) owner = target.owner_id;
    }
    if (owner === null) matching = await countOf(null);
    cooccurrence = { matching, usage: await topUsage(db, sharing(owner), applied) };
  }

  let group: Evidence['group'] = null;
  if (target.owner_id !== null) {
    const members = sql`SELECT r.id FROM resources r WHERE r.owner_id = ${target.owner_id} AND r.id <> ${target.id}`;
    const tagged = await sql<{ n: number }>`SELECT count(DISTINCT rt.resource_id) AS n FROM resource_tags rt WHERE rt.resource_id IN (${members})`.execute(db);
    group = { tagged: Number(tagged.rows[0].n), usage: await topUsage(db, members, applied) };
  }
  return { applied: new Set(applied), neighbours, cooccurrence, group };
}

export async function tagNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('tags').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
