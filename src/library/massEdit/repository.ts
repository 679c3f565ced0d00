// The statements mass edit, the bulk endpoints and edit-meta run over any content table
// (resources, notes, groups): existence of ids, link rows, meta with the carrier it is checked
// against, owners and updated_at. Callers chunk id lists to stay within parameter limits.
import { sql } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import { carrierSchema } from '../categories/repository.js';
import type { CarrierRef, ContentTable, LinkSpec } from '../common/content.js';

/** A link row: `s` is the edited entity, `o` the linked one. */
export interface LinkPair {
  s: number;
  o: number;
}

/** What a meta edit reads of an entity. */
export interface MetaRow {
  id: number;
  name: string;
  meta: string;
  carrier_id: number | null;
}

// Kysely cannot type a statement over "one of several tables"; every ContentTable has the
// columns used here, so statements are typed against `groups` as a stand-in.
type Stand = 'groups';
const stand = (table: ContentTable) => table as Stand;

export class ContentRepository extends Repository<Database> {
  /** The ids among `ids` that exist in `table` and that `vis` may see (tags are global). */
  async existingIds(table: ContentTable | 'tags', ids: readonly number[], vis: Visibility): Promise<number[]> {
    if (ids.length === 0) return [];
    let q = this.db.selectFrom(table as Stand).select('id').where('id', 'in', [...ids]);
    const seen = table === 'tags' ? null : insideScope(vis, table === 'groups' ? 'groups.id' : `${table}.owner_id`);
    if (seen) q = q.where(seen);
    return (await q.execute()).map((r) => r.id);
  }

  /** The link rows of the entities `selfIds`. */
  async links(spec: LinkSpec, selfIds: readonly number[]): Promise<LinkPair[]> {
    const r = await sql<LinkPair>`SELECT ${sql.ref(spec.self)} AS s, ${sql.ref(spec.other)} AS o FROM ${sql.table(spec.table)} WHERE ${sql.ref(spec.self)} IN (${sql.join([...selfIds])})`.execute(this.db);
    return r.rows;
  }

  async unlink(spec: LinkSpec, pairs: readonly LinkPair[]): Promise<void> {
    if (pairs.length === 0) return;
    const self = sql.ref(spec.self);
    const other = sql.ref(spec.other);
    const matches = sql.join(pairs.map((p) => sql`(${self} = ${p.s} AND ${other} = ${p.o})`), sql` OR `);
    await sql`DELETE FROM ${sql.table(spec.table)} WHERE ${matches}`.execute(this.db);
  }

  async link(spec: LinkSpec, pairs: readonly LinkPair[]): Promise<void> {
    if (pairs.length === 0) return;
    await sql`INSERT INTO ${sql.table(spec.table)} (${sql.ref(spec.self)}, ${sql.ref(spec.other)}) VALUES ${sql.join(pairs.map((p) => sql`(${p.s}, ${p.o})`))}`.execute(this.db);
  }

  /** Name, description and meta of the given rows: the per-item hook payloads of a mass edit. */
  async hookRows(table: ContentTable, ids: readonly number[]): Promise<{ id: number; name: string; description: string | null; meta: unknown }[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom(stand(table)).select(['id', 'name', 'description', 'meta']).where('id', 'in', [...ids]).orderBy('id').execute();
  }

  /** Name, stored meta and carrier of the entities `ids` of `table`. */
  async metaRows(table: ContentTable, carrier: CarrierRef, ids: readonly number[]): Promise<MetaRow[]> {
    if (ids.length === 0) return [];
    return (await this.db
      .selectFrom(stand(table))
      .select(['id', 'name', 'meta', sql.ref<number | null>(carrier.column).as('carrier_id')])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute()) as MetaRow[];
  }

  /** Name and MetaSchema of a carrier. */
  carrierSchema(carrier: CarrierRef, id: number) {
    return carrierSchema(this.db, carrier.table, id);
  }

  /** Writes the name, description and meta a plugin's before-hook rewrote for one bulk item. */
  async writeHookFields(table: ContentTable, id: number, fields: { name?: string; description?: string; meta?: string }): Promise<void> {
    if (Object.keys(fields).length === 0) return;
    await this.db.updateTable(stand(table)).set(fields).where('id', '=', id).execute();
  }

  async writeMeta(table: ContentTable, id: number, meta: string): Promise<void> {
    await this.db.updateTable(stand(table)).set({ meta }).where('id', '=', id).execute();
  }

  async readMeta(table: ContentTable, id: number): Promise<string | undefined> {
    return (await this.db.selectFrom(stand(table)).select('meta').where('id', '=', id).executeTakeFirst())?.meta;
  }

  /** The ids among `ids` whose owner is not already `ownerId`. */
  async ownerDiffers(table: ContentTable, ids: readonly number[], ownerId: number | null): Promise<number[]> {
    const rows = await this.db
      .selectFrom(stand(table))
      .select('id')
      .where('id', 'in', [...ids])
      .where((eb) => (ownerId === null ? eb('owner_id', 'is not', null) : eb.or([eb('owner_id', 'is', null), eb('owner_id', '<>', ownerId)])))
      .execute();
    return rows.map((r) => r.id);
  }

  async setOwner(table: ContentTable, ids: readonly number[], ownerId: number | null): Promise<void> {
    await this.db.updateTable(stand(table)).set({ owner_id: ownerId }).where('id', 'in', [...ids]).execute();
  }

  async touch(table: ContentTable, ids: readonly number[], now: string): Promise<void> {
    await this.db.updateTable(stand(table)).set({ updated_at: now }).where('id', 'in', [...ids]).execute();
  }
}
