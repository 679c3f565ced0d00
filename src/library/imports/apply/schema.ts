// Apply phase 1, "resolving schema definitions": every mapping of the plan becomes a local id —
// left out, mapped to the chosen row, or created from the archive's definition (or from the
// bare name when the archive carried only names). Unique names that are taken get a " (2)"
// suffix; a MetaSchema or AutoDetectRules that does not compile here is dropped with a warning.
// Created relation types are paired with their back relation when both came from the archive.
import { validName } from '../../common/names.js';
import { compileMetaSchema } from '../../meta/schema.js';
import { parseAutoDetectRules } from '../../resources/auto-detect.js';
import { CARRIER_TEXT_COLUMNS, SCHEMA_KINDS, type SchemaKind } from '../../archive/format.js';
import { bool, isObj, obj, str, strOrNull, type Obj } from '../fields.js';
import type { MappingEntry } from '../plan.js';
import type { ImportApplyRepository } from './repository.js';
import type { ApplyRun } from './run.js';

const COUNTER: Record<SchemaKind, 'created_categories' | 'created_note_types' | 'created_resource_categories' | 'created_tags' | 'created_grts'> = {
  categories: 'created_categories',
  note_types: 'created_note_types',
  resource_categories: 'created_resource_categories',
  tags: 'created_tags',
  group_relation_types: 'created_grts',
};

/** A free name: the wanted one, or "name (2)", "name (3)" … for unique-name tables. */
async function freeName(repo: ImportApplyRepository, table: 'categories' | 'resource_categories' | 'tags', wanted: string): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? wanted : `${wanted} (${n})`;
    if (!(await repo.nameTaken(table, name))) return name;
  }
  return `${wanted} (${Date.now()})`;
}

function safeName(run: ApplyRun, raw: string, what: string): string {
  try {
    return validName(raw);
  } catch {
    run.warn(`${what} "${raw.slice(0, 80)}" has an invalid name; it was imported as "Unnamed"`);
    return 'Unnamed';
  }
}

/** Carrier columns from an archive definition, with the checks the carrier service applies on save. */
function carrierColumns(run: ApplyRun, kind: 'categories' | 'note_types' | 'resource_categories', p: Obj, name: string): Record<string, unknown> {
  const cols: Record<string, unknown> = { description: str(p.description) };
  for (const col of CARRIER_TEXT_COLUMNS[kind]) cols[col] = str(p[col]);
  try {
    compileMetaSchema(cols.meta_schema as string);
  } catch (e) {
    run.warn(`the MetaSchema of "${name}" does not compile here and was dropped: ${(e as Error).message}`);
    cols.meta_schema = '';
  }
  if (kind === 'resource_categories') {
    try {
      parseAutoDetectRules(cols.auto_detect_rules as string);
    } catch (e) {
      run.warn(`the AutoDetectRules of "${name}" are not valid here and were dropped: ${(e as Error).message}`);
      cols.auto_detect_rules = '';
    }
  }
  let section: unknown = p.section_config;
  if (typeof section === 'string') {
    try {
      section = JSON.parse(section);
    } catch {
      section = {};
    }
  }
  cols.section_config = JSON.stringify(isObj(section) ? section : {});
  if (kind === 'note_types') cols.apply_templates_to_shares = bool(p.apply_templates_to_shares);
  return cols;
}

async function create(run: ApplyRun, repo: ImportApplyRepository, kind: SchemaKind, m: MappingEntry, p: Obj | undefined, renameTo: string | null): Promise<number | null> {
  const payload = p ?? {};
  let name = safeName(run, renameTo ?? m.name, kind.replace(/_/g, ' ').replace(/s$/, ''));
  const stamp = { ...run.stamp(payload), guid: await run.guidFor(repo, kind, payload.guid) };
  if (kind === 'tags') {
    name = await freeName(repo, 'tags', name);
    const meta = obj(payload.meta);
    return repo.insertTag({ ...stamp, name, description: str(payload.description), meta: JSON.stringify(meta) });
  }
  if (kind === 'group_relation_types') {
    const from = run.vocabId('categories', strOrNull(payload.from_category_ref), m.from_category_name ?? null);
    const to = run.vocabId('categories', strOrNull(payload.to_category_ref), m.to_category_name ?? null);
    if (from === null || to === null) {
      run.warn(`relation type "${m.name}" was not created: its categories are not in this library`);
      return null;
    }
    const existing = await repo.relationTypeBetween(name, from, to);
    if (existing !== undefined) {
      run.warn(`relation type "${name}" already exists between these categories; it was used instead of a new one`);
      return existing;
    }
    return repo.insertRelationType({ ...stamp, name, description: str(payload.description), from_category_id: from, to_category_id: to, back_relation_id: null });
  }
  if (kind !== 'note_types') name = await freeName(repo, kind, name);
  if (name !== (renameTo ?? m.name)) run.warn(`${kind.replace(/_/g, ' ')} "${m.name}" was created as "${name}" because the name is taken`);
  return repo.insertCarrier(kind, { ...stamp, name, ...carrierColumns(run, kind, payload, name) });
}

export async function applySchema(run: ApplyRun): Promise<void> {
  for (const kind of SCHEMA_KINDS) {
    const payloads = await run.schemaPayloads(kind);
    const entries = run.plan.mappings[kind];
    const created = new Map<string, number>();
    await run.transactor.run(async (tx) => {
      const repo = run.repo.in(tx);
      for (const [i, m] of entries.entries()) {
        run.job.phase('resolving schema definitions', i, entries.length);
        const dec = run.d.mappings[m.decision_key];
        if (!dec || !dec.include) {
          run.vocab.set(m.decision_key, null);
          continue;
        }
        if (dec.action === 'map') {
          run.vocab.set(m.decision_key, dec.destinationId);
          continue;
        }
        const id = await create(run, repo, kind, m, m.source_export_id ? payloads.get(m.source_export_id) : undefined, dec.renameTo);
        run.vocab.set(m.decision_key, id);
        if (id !== null) {
          run.result[COUNTER[kind]]++;
          if (m.source_export_id) created.set(m.source_export_id, id);
        }
      }
      if (kind === 'group_relation_types') await pairBackRelations(run, repo, payloads, created);
    });
  }
}

/** Created types point at their back relation when the archive paired them and it was imported. */
async function pairBackRelations(run: ApplyRun, repo: ImportApplyRepository, payloads: Map<string, Obj>, created: Map<string, number>): Promise<void> {
  const byExportId = new Map(run.plan.mappings.group_relation_types.filter((m) => m.source_export_id).map((m) => [m.source_export_id!, m.decision_key]));
  for (const [exportId, id] of created) {
    const back = strOrNull(payloads.get(exportId)?.back_relation_ref);
    if (back === null) continue;
    const key = byExportId.get(back);
    const backId = key ? run.vocab.get(key) : null;
    if (backId === null || backId === undefined) continue;
    await repo.setBackRelation(id, backId);
  }
}
