// The apply request (companion §7.5 step 3) checked against the plan before a job is queued:
// shapes are 400s; decisions that cannot be carried out (an ambiguous mapping left open, a
// destination that does not exist, missing bytes not acknowledged) are 422s and name the key.
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import { validName } from '../common/names.js';
import { SCHEMA_KINDS, type SchemaKind } from '../archive/format.js';
import { isObj, type Obj } from './fields.js';
import type { Plan } from './plan.js';
import type { GuidTable, ImportPlanRepository } from './plan.repository.js';

export type GuidPolicy = 'merge' | 'skip' | 'replace';
export type HashPolicy = 'skip' | 'duplicate';

export interface MappingDecision {
  include: boolean;
  action: 'map' | 'create';
  destinationId: number | null;
  renameTo: string | null;
}

export interface Decisions {
  parentGroupId: number | null;
  hashPolicy: HashPolicy;
  guidPolicy: GuidPolicy;
  acknowledgeMissing: boolean;
  /** Every mapping of the plan, by decision key. */
  mappings: Record<string, MappingDecision>;
  dangling: Record<string, { action: 'drop' | 'map'; destinationId: number | null }>;
  shells: Record<string, { action: 'create' | 'map_to_existing'; destinationId: number | null }>;
  excluded: string[];
}

const unprocessable = (message: string) => new HttpError(422, message);

const TABLE: Record<SchemaKind, 'categories' | 'note_types' | 'resource_categories' | 'tags' | 'group_relation_types'> = {
  categories: 'categories',
  note_types: 'note_types',
  resource_categories: 'resource_categories',
  tags: 'tags',
  group_relation_types: 'group_relation_types',
};

function objectField(body: Obj, name: string): Obj {
  const v = body[name];
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw badRequest(`${name} must be an object`);
  return v;
}

function optionalId(v: unknown, field: string): number | null {
  if (v === undefined || v === null || v === '' || v === 0) return null;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badRequest(`${field} must be a positive integer`);
  return n;
}

function oneOf<T extends string>(v: unknown, field: string, allowed: readonly T[], fallback: T): T {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw badRequest(`${field} must be one of ${allowed.join(', ')}`);
  return v as T;
}

function flag(v: unknown, field: string, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  throw badRequest(`${field} must be true or false`);
}

/** The ids among `ids` (once each) that `table` does not have. */
async function missingIds(repo: ImportPlanRepository, table: GuidTable, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const have = new Set(await repo.existing(table, unique));
  return unique.filter((id) => !have.has(id));
}

export async function resolveDecisions(repo: ImportPlanRepository, plan: Plan, body: Obj): Promise<Decisions> {
  const parentGroupId = optionalId(body.parent_group_id, 'parent_group_id');
  const hashPolicy = oneOf(body.resource_collision_policy, 'resource_collision_policy', ['skip', 'duplicate'] as const, 'skip');
  const guidPolicy = oneOf(body.guid_collision_policy, 'guid_collision_policy', ['merge', 'skip', 'replace'] as const, 'merge');
  const acknowledgeMissing = flag(body.acknowledge_missing_hashes, 'acknowledge_missing_hashes', false);
  const actions = objectField(body, 'mapping_actions');
  const danglingActions = objectField(body, 'dangling_actions');
  const shellActions = objectField(body, 'shell_group_actions');
  const excludedRaw = body.excluded_items ?? [];
  if (!Array.isArray(excludedRaw) || excludedRaw.some((x) => typeof x !== 'string')) throw badRequest('excluded_items must be an array of export ids');

  if (parentGroupId !== null && (await missingIds(repo, 'groups', [parentGroupId])).length) throw notFound(`parent_group_id: group ${parentGroupId} not found`);

  const mappings: Record<string, MappingDecision> = {};
  const unresolved: string[] = [];
  const known = new Set<string>();
  const wanted: Record<SchemaKind, number[]> = { categories: [], note_types: [], resource_categories: [], tags: [], group_relation_types: [] };
  for (const kind of SCHEMA_KINDS) {
    for (const m of plan.mappings[kind]) {
      known.add(m.decision_key);
      const raw = actions[m.decision_key];
      if (raw !== undefined && !isObj(raw)) throw badRequest(`mapping_actions.${m.decision_key} must be an object`);
      const a = (raw ?? {}) as Obj;
      const include = flag(a.include, `mapping_actions.${m.decision_key}.include`, true);
      const action = oneOf(a.action, `mapping_actions.${m.decision_key}.action`, ['map', 'create'] as const, m.suggestion);
      const destinationId = optionalId(a.destination_id, `mapping_actions.${m.decision_key}.destination_id`) ?? (a.action === undefined || a.action === m.suggestion ? m.destination_id : null);
      const renameTo = typeof a.rename_to === 'string' && a.rename_to.trim() !== '' ? validName(a.rename_to, `mapping_actions.${m.decision_key}.rename_to`) : null;
      if (include && action === 'map' && destinationId === null) {
        unresolved.push(m.decision_key);
        continue;
      }
      if (include && action === 'map') wanted[kind].push(destinationId!);
      mappings[m.decision_key] = { include, action, destinationId: action === 'map' ? destinationId : null, renameTo };
    }
  }
  if (unresolved.length) throw unprocessable(`unresolved mappings (ambiguous or without a destination): ${unresolved.slice(0, 20).join(', ')}`);
  const unknown = Object.keys(actions).filter((k) => !known.has(k));
  if (unknown.length) throw unprocessable(`mapping_actions names keys that are not in the plan: ${unknown.slice(0, 20).join(', ')}`);
  for (const kind of SCHEMA_KINDS) {
    const gone = await missingIds(repo, TABLE[kind], wanted[kind]);
    if (gone.length) throw unprocessable(`mapping_actions: ${TABLE[kind].replace(/_/g, ' ')} ${gone[0]} not found`);
  }

  const dangling: Decisions['dangling'] = {};
  const danglingById = new Map(plan.dangling_refs.map((d) => [d.id, d]));
  const danglingTargets: Record<'groups' | 'resources' | 'notes', number[]> = { groups: [], resources: [], notes: [] };
  for (const [id, raw] of Object.entries(danglingActions)) {
    const ref = danglingById.get(id);
    if (!ref) throw unprocessable(`dangling_actions.${id}: no such dangling reference in the plan`);
    if (!isObj(raw)) throw badRequest(`dangling_actions.${id} must be an object`);
    const action = oneOf(raw.action, `dangling_actions.${id}.action`, ['drop', 'map'] as const, 'drop');
    const destinationId = optionalId(raw.destination_id, `dangling_actions.${id}.destination_id`);
    if (action === 'map') {
      if (destinationId === null) throw unprocessable(`dangling_actions.${id}: map needs a destination_id`);
      const table = ref.kind === 'related_resource' ? 'resources' : ref.kind === 'related_note' ? 'notes' : ref.kind === 'resource_series_sibling' ? null : 'groups';
      if (table === null) throw unprocessable(`dangling_actions.${id}: series siblings cannot be mapped, only dropped`);
      danglingTargets[table].push(destinationId);
    }
    dangling[id] = { action, destinationId: action === 'map' ? destinationId : null };
  }
  for (const table of ['groups', 'resources', 'notes'] as const) {
    const gone = await missingIds(repo, table, danglingTargets[table]);
    if (gone.length) throw unprocessable(`dangling_actions: ${table.slice(0, -1)} ${gone[0]} not found`);
  }

  const shellIds = new Set<string>();
  const walk = (items: Plan['items']) =>
    items.forEach((i) => {
      if (i.shell) shellIds.add(i.export_id);
      walk(i.children);
    });
  walk(plan.items);
  const shells: Decisions['shells'] = {};
  const shellTargets: number[] = [];
  for (const [id, raw] of Object.entries(shellActions)) {
    if (!shellIds.has(id)) throw unprocessable(`shell_group_actions.${id}: not a shell group of the plan`);
    if (!isObj(raw)) throw badRequest(`shell_group_actions.${id} must be an object`);
    const action = oneOf(raw.action, `shell_group_actions.${id}.action`, ['create', 'map_to_existing'] as const, 'create');
    const destinationId = optionalId(raw.destination_id, `shell_group_actions.${id}.destination_id`);
    if (action === 'map_to_existing') {
      if (destinationId === null) throw unprocessable(`shell_group_actions.${id}: map_to_existing needs a destination_id`);
      shellTargets.push(destinationId);
    }
    shells[id] = { action, destinationId: action === 'map_to_existing' ? destinationId : null };
  }
  const goneShell = await missingIds(repo, 'groups', shellTargets);
  if (goneShell.length) throw unprocessable(`shell_group_actions: group ${goneShell[0]} not found`);

  const excluded = excludedRaw as string[];
  if (plan.manifest_only_missing_hashes > 0 && !acknowledgeMissing) {
    throw unprocessable(`${plan.manifest_only_missing_hashes} file(s) of this archive are neither in it nor in this library; set acknowledge_missing_hashes to import those resources without their bytes`);
  }
  return { parentGroupId, hashPolicy, guidPolicy, acknowledgeMissing, mappings, dangling, shells, excluded };
}
