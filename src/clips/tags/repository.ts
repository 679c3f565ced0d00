// Tag rows, counts and subtree queries; no rules here.
import { sql, type Kysely } from 'kysely';
import type { ClipDatabase } from '../schema/database.js';
import { descendantRange, rootOf } from './names.js';
import { idList } from './sql.js';

export interface TagRow {
  id: number;
  name: string;
  color: string;
  created_at: string;
}

export interface TagJson {
  id: number;
  name: string;
  color: string;
  count: number;
}

type Db = Kysely<ClipDatabase>;

export class TagRepository {
  constructor(private readonly db: Db) {}

  find(id: number, db: Db = this.db): Promise<TagRow | undefined> {
    return db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string, db: Db = this.db): Promise<TagRow | undefined> {
    return db.selectFrom('tags').selectAll().where('name', '=', name).executeTakeFirst();
  }

  findMany(ids: readonly number[], db: Db = this.db): Promise<TagRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('tags').selectAll().where(sql<boolean>`id IN ${idList(ids)}`).execute();
  }

  findByNames(names: readonly string[], db: Db = this.db): Promise<TagRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return db.selectFrom('tags').selectAll().where('name', 'in', [...names]).execute();
  }

  /** All tags, or the subtree of `under`, sorted by name (binary order). */
  list(under?: { id: number; name: string }, db: Db = this.db): Promise<TagRow[]> {
    let q = db.selectFrom('tags').selectAll();
    if (under) {
      const [low, high] = descendantRange(under.name);
      q = q.where((eb) => eb.or([eb('id', '=', under.id), eb.and([eb('name', '>=', low), eb('name', '<', high)])]));
    }
    return q.orderBy('name').execute();
  }

  /** The tag and its descendants. */
  subtree(tag: { id: number; name: string }, db: Db = this.db): Promise<TagRow[]> {
    return this.list(tag, db);
  }

  /** Tags of the root tree of `name` (root itself or anything below it), by name only. */
  rootTree(name: string, db: Db = this.db): Promise<TagRow[]> {
    const root = rootOf(name);
    const [low, high] = descendantRange(root);
    return db
      .selectFrom('tags')
      .selectAll()
      .where((eb) => eb.or([eb('name', '=', root), eb.and([eb('name', '>=', low), eb('name', '<', high)])]))
      .execute();
  }

  /** Immediate children: descendants with exactly one more segment. */
  children(tag: { name: string }, db: Db = this.db): Promise<TagRow[]> {
    const [low, high] = descendantRange(tag.name);
    return db
      .selectFrom('tags')
      .selectAll()
      .where('name', '>=', low)
      .where('name', '<', high)
      .where(sql<boolean>`instr(substr(name, ${low.length + 1}), '/') = 0`)
      .orderBy('name')
      .execute();
  }

  async countAll(db: Db = this.db): Promise<number> {
    const r = await db.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Live clips directly carrying each tag (archived included, expired excluded). Counted as
   * all links minus links of expired clips, so the common case reads only the covering index.
   */
  async counts(tagIds: readonly number[] | 'all', now: string, db: Db = this.db): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (tagIds !== 'all' && tagIds.length === 0) return out;
    const only = tagIds === 'all' ? sql`1 = 1` : sql`ct.tag_id IN ${idList(tagIds)}`;
    const all = await sql<{ tag_id: number; n: number }>`
      SELECT ct.tag_id, COUNT(*) AS n FROM clip_tags ct WHERE ${only} GROUP BY ct.tag_id`.execute(db);
    for (const r of all.rows) out.set(r.tag_id, Number(r.n));
    // CROSS JOIN keeps SQLite walking the few expired clips first, not every link of the tags.
    const expired = await sql<{ tag_id: number; n: number }>`
      SELECT ct.tag_id, COUNT(*) AS n FROM clips c CROSS JOIN clip_tags ct ON ct.clip_id = c.id
      WHERE c.expires_at IS NOT NULL AND c.expires_at <= ${now} AND ${only} GROUP BY ct.tag_id`.execute(db);
    for (const r of expired.rows) out.set(r.tag_id, (out.get(r.tag_id) ?? 0) - Number(r.n));
    return out;
  }

  async toJson(rows: readonly TagRow[], now: string, db: Db = this.db): Promise<TagJson[]> {
    const counts = await this.counts(rows.map((r) => r.id), now, db);
    return rows.map((r) => ({ id: r.id, name: r.name, color: r.color, count: counts.get(r.id) ?? 0 }));
  }
}
