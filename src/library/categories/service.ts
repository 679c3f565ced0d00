// Carrier rules (categories, resource categories, note types): partial updates, unique names,
// MetaSchema compiled on save, SectionConfig must be a JSON object, and the deletion rules of
// companion §2.8 (the Default resource category stays; its resources move back to it).
import type { Updateable } from 'kysely';
import { bool, nowIso, parseJson } from '../../core/db/values.js';
import { badRequest } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { changedText, newRowStamp, withChange, type ChangeData } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import type { NamedRow } from '../common/named.repository.js';
import { validName } from '../common/names.js';
import { checkMeta, compileMetaSchema } from '../meta/schema.js';
import type { Database } from '../schema/database.js';
import { parseAutoDetectRules } from '../resources/auto-detect.js';
import type { CarrierKind } from './kinds.js';
import { CarrierRepository, type CarrierRow, type CarrierTable } from './repository.js';

export type { CarrierRow };
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
  readonly named: NamedEntities<CarrierTable>;
  readonly kind: CarrierKind;
  private readonly repo: CarrierRepository;
  private readonly deps: NamedDeps;

  constructor(repo: CarrierRepository, deps: NamedDeps) {
    this.repo = repo;
    this.deps = deps;
    this.kind = this.repo.kind;
    this.named = new NamedEntities(this.repo, { entityType: this.kind.entityType, label: this.kind.label, uniqueName: this.kind.uniqueName }, this.deps);
  }

  record(row: NamedRow<CarrierTable>) {
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
  private columns(input: CarrierInput, before?: CarrierRow): Record<string, unknown> {
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

  async create(actor: Actor, input: CarrierInput) {
    const cols = this.columns(input);
    await this.named.assertNameFree(cols.name as string);
    const data: ChangeData = { id: 0, name: cols.name as string, description: (cols.description as string | undefined) ?? '' };
    return withChange(this.deps.bus, actor, 'create', this.kind.entityType, async () => {
      const name = validName(changedText(data, 'name', cols.name as string));
      if (name !== cols.name) await this.named.assertNameFree(name);
      const row = await this.repo.insert({ ...newRowStamp(actor), ...cols, name, description: changedText(data, 'description', (cols.description as string | undefined) ?? '') });
      return { id: row.id, name: row.name, after: row, result: this.record(row) };
    }, { data });
  }

  async update(actor: Actor, id: number, input: CarrierInput) {
    const before = (await this.named.require(id)) as CarrierRow;
    const cols = this.columns(input, before);
    if (cols.name !== undefined) await this.named.assertNameFree(cols.name as string, id);
    const data: ChangeData = { id, name: (cols.name as string | undefined) ?? before.name, description: (cols.description as string | undefined) ?? before.description };
    return withChange(this.deps.bus, actor, 'update', this.kind.entityType, async () => {
      const name = validName(changedText(data, 'name', before.name));
      if (name !== (cols.name ?? before.name) && name !== before.name) await this.named.assertNameFree(name, id);
      const description = changedText(data, 'description', before.description);
      await this.repo.update(id, { ...cols, name, description } as Updateable<Database['categories']>);
      const after = await this.named.require(id);
      return { id, name: after.name, before, after, result: this.record(after) };
    }, { data });
  }

  async delete(actor: Actor, id: number | undefined) {
    const row = await this.named.require(id);
    if (this.kind.table === 'resource_categories') {
      if (row.name === DEFAULT_RESOURCE_CATEGORY) throw badRequest('cannot delete the default resource category');
      return this.named.delete(actor, row.id, async (tx) => {
        const carriers = this.repo.in(tx);
        const fallback = await carriers.findByName(DEFAULT_RESOURCE_CATEGORY);
        if (!fallback) throw new Error('the Default resource category is missing');
        await carriers.reassignResources(row.id, fallback.id, nowIso());
      });
    }
    // Groups lose the category and notes the note type (ON DELETE SET NULL); relation types of
    // a deleted category go with their relations (ON DELETE CASCADE).
    return this.named.delete(actor, row.id);
  }

  /** How many entities the carrier types, and the first page of them, for its detail page. */
  async members(id: number, limit: number) {
    const [rows, total] = await Promise.all([this.repo.members(id, limit), this.repo.memberCount(id)]);
    return { table: this.repo.typedTable, rows, total };
  }

  find(id: number): Promise<CarrierRow | undefined> {
    return this.repo.find(id) as Promise<CarrierRow | undefined>;
  }

  /** The carriers among `ids`, by id (one statement). */
  async byIds(ids: readonly (number | null)[]): Promise<Map<number, CarrierRow>> {
    const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
    return new Map((await this.repo.findMany(wanted)).map((r) => [r.id, r as CarrierRow]));
  }

  /** Every carrier's id and name, by name (form selects). */
  options(): Promise<{ id: number; name: string }[]> {
    return this.repo.options();
  }

  /** Checks an entity's `meta` against the MetaSchema of carrier `carrierId` (400 with errors). */
  async checkEntityMeta(carrierId: number | null, meta: Record<string, unknown>): Promise<void> {
    if (carrierId === null) return;
    const row = await this.repo.schemaOf(carrierId);
    if (row) checkMeta(row.meta_schema, meta, this.kind.label, row.name);
  }
}
