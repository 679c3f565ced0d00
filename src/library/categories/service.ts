// Carrier rules (categories, resource categories, note types): partial updates, unique names,
// MetaSchema compiled on save, SectionConfig must be a JSON object, and the deletion rules of
// companion §2.8 (the Default resource category stays; its resources move back to it).
import type { Updateable } from 'kysely';
import { nowIso, parseJson, bool } from '../../core/db/values.js';
import { badRequest, conflict } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange, type Row } from '../common/crud.js';
import { validName } from '../common/names.js';
import { compileMetaSchema } from '../meta/schema.js';
import type { Database } from '../schema/database.js';
import type { CarrierKind } from './kinds.js';
import { parseAutoDetectRules } from '../resources/auto-detect.js';

export type CarrierRow = Row<'categories'> & Record<string, unknown>;
export type CarrierInput = Record<string, string | boolean | number | undefined> & { ID?: number; Name?: string; Description?: string };

export const DEFAULT_RESOURCE_CATEGORY = 'Default';

/** SectionConfig text: an object or nothing (companion §4.4). */
function sectionConfigText(raw: string): string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw badRequest(`SectionConfig is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('SectionConfig must be a JSON object');
  return JSON.stringify(value);
}

export class CarrierService {
  readonly crud: Crud<CarrierKind['table']>;

  constructor(
    private readonly lib: Library,
    readonly kind: CarrierKind,
  ) {
    this.crud = new Crud(lib, {
      table: kind.table,
      entityType: kind.entityType,
      label: kind.label,
      sort: { columns: ['id', 'name', 'description', 'created_at', 'updated_at'], meta: false },
    });
  }

  record(row: Row<CarrierKind['table']>) {
    const r = row as unknown as Record<string, unknown>;
    const out: Record<string, unknown> = { ID: row.id, CreatedAt: row.created_at, UpdatedAt: row.updated_at, Name: row.name, Description: row.description };
    for (const [json, col] of Object.entries(this.kind.slots)) out[json] = r[col] ?? '';
    for (const [json, col] of Object.entries(this.kind.texts)) out[json] = r[col] ?? '';
    for (const [json, col] of Object.entries(this.kind.flags)) out[json] = bool(r[col]);
    out.MetaSchema = r.meta_schema ?? '';
    out.SectionConfig = JSON.stringify(parseJson(r.section_config, {}));
    return out;
  }

  /** Column values from the input; on update, fields that are absent keep their stored values. */
  private columns(input: CarrierInput, before?: Row<CarrierKind['table']>): Record<string, unknown> {
    const cols: Record<string, unknown> = {};
    const text = (v: unknown) => (v === undefined ? undefined : String(v));
    if (input.Name !== undefined || !before) cols.name = validName(input.Name);
    if (input.Description !== undefined) cols.description = input.Description;
    for (const [json, col] of Object.entries({ ...this.kind.slots, ...this.kind.texts })) {
      const v = text(input[json]);
      if (v !== undefined) cols[col] = v;
    }
    // AutoDetectRules are checked on save (companion §3.10).
    if (typeof cols.auto_detect_rules === 'string') parseAutoDetectRules(cols.auto_detect_rules);
    for (const [json, col] of Object.entries(this.kind.flags)) {
      if (input[json] !== undefined) cols[col] = Boolean(input[json]);
    }
    const schema = text(input.MetaSchema);
    if (schema !== undefined) {
      compileMetaSchema(schema);
      cols.meta_schema = schema.trim() === '' ? '' : schema;
    }
    const section = text(input.SectionConfig);
    // An empty SectionConfig leaves the stored value unchanged on update (reference behaviour).
    if (section !== undefined && section.trim() !== '') cols.section_config = sectionConfigText(section);
    else if (!before) cols.section_config = '{}';
    return cols;
  }

  private async checkName(name: string | undefined, id?: number): Promise<void> {
    if (!this.kind.uniqueName || name === undefined) return;
    const clash = await this.crud.findByName(name);
    if (clash && clash.id !== id) throw conflict(`a ${this.kind.label} named "${name}" already exists`);
  }

  async create(actor: Actor, input: CarrierInput) {
    const cols = this.columns(input);
    await this.checkName(cols.name as string);
    return withChange(this.lib, actor, 'create', this.kind.entityType, async () => {
      const row = await this.lib.db
        .insertInto(this.kind.table as 'categories')
        .values({ ...newRowStamp(actor), ...cols } as never)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, name: row.name, after: row, result: this.record(row as Row<'categories'>) };
    });
  }

  async update(actor: Actor, id: number, input: CarrierInput) {
    const before = await this.crud.require(id);
    const cols = this.columns(input, before);
    await this.checkName(cols.name as string | undefined, id);
    return withChange(this.lib, actor, 'update', this.kind.entityType, async () => {
      await this.crud.update(id, cols as Updateable<Database['categories']>);
      const after = await this.crud.require(id);
      return { id, name: after.name, before, after, result: this.record(after) };
    });
  }

  async delete(actor: Actor, id: number | undefined) {
    const row = await this.crud.require(id);
    if (this.kind.table === 'resource_categories') {
      if (row.name === DEFAULT_RESOURCE_CATEGORY) throw badRequest('cannot delete the default resource category');
      return this.crud.delete(actor, row.id, async (trx) => {
        const fallback = await trx.selectFrom('resource_categories').select('id').where('name', '=', DEFAULT_RESOURCE_CATEGORY).executeTakeFirstOrThrow();
        await trx.updateTable('resources').set({ resource_category_id: fallback.id, updated_at: nowIso() }).where('resource_category_id', '=', row.id).execute();
      });
    }
    // Groups lose the category and notes the note type (ON DELETE SET NULL); relation types of
    // a deleted category go with their relations (ON DELETE CASCADE).
    return this.crud.delete(actor, row.id);
  }

  /** How many entities the carrier types, and the first page of them, for its detail page. */
  async members(id: number, limit: number) {
    const target = { categories: ['groups', 'category_id'], resource_categories: ['resources', 'resource_category_id'], note_types: ['notes', 'note_type_id'] } as const;
    const [table, col] = target[this.kind.table];
    const db = this.lib.db;
    const [rows, total] = await Promise.all([
      db.selectFrom(table as 'groups').select(['id', 'name']).where(col as 'category_id', '=', id).orderBy('name').limit(limit).execute(),
      db.selectFrom(table as 'groups').select((eb) => eb.fn.countAll<number>().as('n')).where(col as 'category_id', '=', id).executeTakeFirstOrThrow(),
    ]);
    return { table, rows, total: Number(total.n) };
  }
}
