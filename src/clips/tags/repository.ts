// Tag rows, counts and subtree queries; no rules here.
import { sql, type RawBuilder } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import { idList } from '../schema/fragments.js';
import { descendantRange, rootOf } from './names.js';

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

export class TagRepository extends ClipStoreRepository {
  find(id: number): Promise<TagRow | undefined> {
    return this.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByName(name: string): Promise<TagRow | undefined> {
    return this.db.selectFrom('tags').selectAll().where('name', '=', name).executeTakeFirst();
  }

  findMany(ids: readonly number[]): Promise<TagRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tags').selectAll().where(sql<boolean>`id IN ${idList(ids)}`).execute();
  }

  findByNames(names: readonly string[]): Promise<TagRow[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tags').selectAll().where('name', 'in', [...names]).execute();
  }

  /** All tags, or the subtree of `under`, sorted by name (binary order). */
  list(under?: { id: number; name: string }): Promise<TagRow[]> {
    let q = this.db.selectFrom('tags').selectAll();
    if (under) {
      const [low, high] = descendantRange(under.name);
      q = q.where((eb) => eb.or([eb('id', '=', under.id), eb.and([eb('name', '>=', low), eb('name', '<', high)])]));
    }
    return q.orderBy('name').execute();
  }

  /** The tag and its descendants. */
  subtree(tag: { id: number; name: string }): Promise<TagRow[]> {
    return this.list(tag);
  }

  /** Tags of the root tree of `name` (root itself or anything below it), by name only. */
  rootTree(name: string): Promise<TagRow[]> {
    const root = rootOf(name);
    const [low, high] = descendantRange(root);
    return this.db
      .selectFrom('tags')
      .selectAll()
      .where((eb) => eb.or([eb('name', '=', root), eb.and([eb('name', '>=', low), eb('name', '<', high)])]))
      .execute();
  }

  /** Immediate children: descendants with exactly one more segment. */
  children(tag: { name: string }): Promise<TagRow[]> {
    const [low, high] = descendantRange(tag.name);
    return this.db
      .selectFrom('tags')
      .selectAll()
      .where('name', '>=', low)
      .where('name', '<', high)
      .where(sql<boolean>`instr(substr(name, ${low.length + 1}), '/') = 0`)
      .orderBy('name')
      .execute();
  }

  async countAll(): Promise<number> {
    const r = await this.db.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Live clips directly carrying each tag (archived included, expired excluded): the links
   * kept in tag_stats (migration 002) minus links of expired clips, which are few.
   */
  async counts(tagIds: readonly number[] | 'all', now: string): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (tagIds !== 'all' && tagIds.length === 0) return out;
    const only = (column: RawBuilder<unknown>) => (tagIds === 'all' ? sql`1 = 1` : sql`${column} IN ${idList(tagIds)}`);
    const all = await sql<{ tag_id: number; n: number }>`
      SELECT s.tag_id, s.links AS n FROM tag_stats s WHERE ${only(sql`s.tag_id`)} AND s.links > 0`.execute(this.db);
    for (const r of all.rows) out.set(r.tag_id, Number(r.n));
    // CROSS JOIN keeps SQLite walking the few expired clips first, not every link of the tags.
    const expired = await sql<{ tag_id: number; n: number }>`
      SELECT ct.tag_id, COUNT(*) AS n FROM clips c CROSS JOIN clip_tags ct ON ct.clip_id = c.id
      WHERE c.expires_at IS NOT NULL AND c.expires_at <= ${now} AND ${only(sql`ct.tag_id`)} GROUP BY ct.tag_id`.execute(this.db);
    for (const r of expired.rows) out.set(r.tag_id, (out.get(r.tag_id) ?? 0) - Number(r.n));
    return out;
  }

  async toJson(rows: readonly TagRow[], now: string): Promise<TagJson[]> {
    const counts = await this.counts(rows.map((r) => r.id), now);
    return rows.map((r) => ({ id: r.id, name: r.name, color: r.color, count: counts.get(r.id) ?? 0 }));
  }

  insert(row: { name: string; color: string; created_at: string }): Promise<TagRow> {
    return this.db.insertInto('tags').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async setColor(id: number, color: string): Promise<void> {
    await this.db.updateTable('tags').set({ color }).where('id', '=', id).execute();
  }

  /**
   * Gives each tag a temporary name no real tag can have (control characters are refused), so a
   * subtree can be renamed tag by tag without tripping the unique index midway.
   */
  async parkNames(ids: readonly number[]): Promise<void> {
    await sql`UPDATE tags SET name = char(1) || id WHERE id IN ${idList(ids)}`.execute(this.db);
  }

  async setName(id: number, name: string): Promise<void> {
    await this.db.updateTable('tags').set({ name }).where('id', '=', id).execute();
  }

  /** Deletes one tag; its links go with it and watch folders lose it as auto-tag (foreign keys). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('tags').where('id', '=', id).execute();
  }
}
