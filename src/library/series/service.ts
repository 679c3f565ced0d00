// Series (contract: Series; companion §2.8, §3.11): ordered resource sets sharing metadata.
// Deleting a series keeps each member's effective meta and clears the membership.
import { sql } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { conflict } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, rowStamp, withChange, type Row } from '../common/crud.js';
import { jsonObjectText, validName } from '../common/names.js';

export type SeriesRow = Row<'series'>;

export function seriesRecord(row: SeriesRow) {
  return { ID: row.id, CreatedAt: row.created_at, UpdatedAt: row.updated_at, Name: row.name, Slug: row.slug, Meta: parseJson<Record<string, unknown>>(row.meta, {}) };
}

export class SeriesService {
  readonly crud: Crud<'series'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'series',
      entityType: 'series',
      label: 'series',
      sort: { columns: ['id', 'name', 'slug', 'created_at', 'updated_at'], meta: true },
    });
  }

  private async checkSlug(slug: string): Promise<void> {
    const clash = await this.lib.db.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirst();
    if (clash) throw conflict(`a series with the slug "${slug}" already exists`);
  }

  async create(actor: Actor, input: { Name?: string; Slug?: string }) {
    const name = validName(input.Name);
    const slug = input.Slug?.trim() ? validName(input.Slug, 'Slug') : name;
    await this.checkSlug(slug);
    return withChange(this.lib, actor, 'create', 'series', async () => {
      const stamp = rowStamp(actor);
      const row = await this.lib.db.insertInto('series').values({ ...stamp, name, slug, meta: '{}' }).returningAll().executeTakeFirstOrThrow();
      return { id: row.id, name, after: row, result: row as SeriesRow };
    });
  }

  async update(actor: Actor, id: number | undefined, input: { Name?: string; Meta?: string }) {
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    return withChange(this.lib, actor, 'update', 'series', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await trx.updateTable('series').set({ name, meta, updated_at: nowIso() }).where('id', '=', before.id).execute();
        // Members' effective meta follows the series: series meta merged with their own.
        const members = await trx.selectFrom('resources').select(['id', 'own_meta']).where('series_id', '=', before.id).execute();
        const shared = parseJson<Record<string, unknown>>(meta, {});
        for (const m of members) {
          const merged = { ...shared, ...parseJson<Record<string, unknown>>(m.own_meta, {}) };
          for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
          await trx.updateTable('resources').set({ meta: JSON.stringify(merged) }).where('id', '=', m.id).execute();
        }
      });
      const after = await this.crud.require(before.id);
      return { id: before.id, name, before, after, result: after };
    });
  }

  async delete(actor: Actor, id: number | undefined) {
    return this.crud.delete(actor, id, async (trx, row) => {
      // Members keep their effective meta (series meta merged with their own) as plain meta.
      await sql`UPDATE resources SET own_meta = '{}', series_id = NULL, updated_at = ${nowIso()} WHERE series_id = ${row.id}`.execute(trx);
    });
  }

  async members(id: number, limit: number) {
    return this.lib.db.selectFrom('resources').select(['id', 'name']).where('series_id', '=', id).orderBy('created_at').orderBy('id').limit(limit).execute();
  }
}
