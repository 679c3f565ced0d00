// mah.action (library-plugins.md §17.1, §17.2): what a registration may declare, checked when
// init() makes it so a malformed action fails the enable instead of a later run; the descriptor
// the listing shows; and which actions match an entity's filter values.
import { LuaFunctionRef, luaText } from '../../core/lua/index.js';
import { isScoped, type Principal } from '../auth/principal.js';
import type { MahPlugin } from './mah.js';

export const ACTION_ENTITIES = ['resource', 'note', 'group'] as const;
export type ActionEntity = (typeof ACTION_ENTITIES)[number];
const PARAM_TYPES = ['text', 'textarea', 'number', 'select', 'boolean', 'hidden', 'info', 'entity_ref'];
const REF_DEFAULTS = ['trigger', 'selection', 'both', ''];

export interface ActionFilters {
  content_types?: string[];
  category_ids?: number[];
  note_type_ids?: number[];
}

export interface ActionParam {
  name: string;
  type: string;
  label: string;
  required: boolean;
  default?: unknown;
  options?: string[];
  min?: number;
  max?: number;
  step?: number;
  show_when?: Record<string, unknown>;
  description?: string;
  entity?: ActionEntity;
  multi?: boolean;
  filters?: ActionFilters;
}

export interface ActionDef {
  pluginName: string;
  id: string;
  label: string;
  entity: ActionEntity;
  description?: string;
  icon?: string;
  confirm?: string;
  async: boolean;
  bulkMax: number;
  placement: string[];
  filters: ActionFilters;
  params: ActionParam[];
  handler: LuaFunctionRef;
}

/** The actions each live plugin registered, in registration order (dropped with the plugin). */
const registered = new WeakMap<MahPlugin, ActionDef[]>();

export function actionsOf(plugin: MahPlugin): ActionDef[] {
  return registered.get(plugin) ?? [];
}

type Table = Record<string, unknown>;

const isTable = (v: unknown): v is Table => v !== null && typeof v === 'object' && !(v instanceof LuaFunctionRef) && !(v instanceof Uint8Array);
/** A Lua array arrives as an array; an empty Lua table as an empty object. */
const asList = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : isTable(v) && Object.keys(v).length === 0 ? [] : undefined);
const optText = (v: unknown): string | undefined => luaText(v);

function idList(v: unknown, key: string): number[] {
  const list = asList(v);
  if (!list) throw new Error(`'filters.${key}' must be an array of whole numbers`);
  for (const x of list) {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 1) throw new Error(`'filters.${key}' entries must be whole numbers of at least 1, got ${String(x)}`);
  }
  return list as number[];
}

export function parseFilters(v: unknown): ActionFilters {
  if (v === undefined || v === null) return {};
  if (!isTable(v)) throw new Error("'filters' must be a table");
  const out: ActionFilters = {};
  if (v.content_types !== undefined) {
    const list = asList(v.content_types);
    if (!list || list.some((x) => typeof x !== 'string')) throw new Error("'filters.content_types' must be an array of strings");
    if (list.length) out.content_types = list as string[];
  }
  if (v.category_ids !== undefined) {
    const ids = idList(v.category_ids, 'category_ids');
    if (ids.length) out.category_ids = ids;
  }
  if (v.note_type_ids !== undefined) {
    const ids = idList(v.note_type_ids, 'note_type_ids');
    if (ids.length) out.note_type_ids = ids;
  }
  return out;
}

function isEntity(v: unknown): v is ActionEntity {
  return typeof v === 'string' && (ACTION_ENTITIES as readonly string[]).includes(v);
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function parseParam(t: Table, action: string): ActionParam {
  const name = optText(t.name);
  if (!name) throw new Error(`action "${action}": every param needs a 'name'`);
  const type = optText(t.type) ?? 'text';
  if (!PARAM_TYPES.includes(type)) throw new Error(`action "${action}": param "${name}" has unknown type "${type}" (types: ${PARAM_TYPES.join(', ')})`);
  const p: ActionParam = { name, type, label: optText(t.label) ?? name, required: t.required === true };
  if (t.default !== undefined && t.default !== null) p.default = t.default;
  if (t.options !== undefined) {
    const list = asList(t.options);
    if (!list || list.some((x) => typeof x !== 'string')) throw new Error(`action "${action}": param "${name}": 'options' must be an array of strings`);
    p.options = list as string[];
  }
  for (const k of ['min', 'max', 'step'] as const) {
    if (t[k] === undefined || t[k] === null) continue;
    if (typeof t[k] !== 'number') throw new Error(`action "${action}": param "${name}": '${k}' must be a number`);
    p[k] = t[k];
  }
  if (t.description !== undefined) p.description = optText(t.description) ?? '';
  if (t.show_when !== undefined && t.show_when !== null) {
    if (!isTable(t.show_when) || Array.isArray(t.show_when)) throw new Error(`action "${action}": param "${name}": 'show_when' must be a table`);
    p.show_when = t.show_when;
  }
  if (type === 'entity_ref') {
    if (!isEntity(t.entity)) throw new Error(`action "${action}": param "${name}": entity_ref needs 'entity' = "resource", "note" or "group"`);
    p.entity = t.entity;
    p.multi = t.multi === true;
    if (t.filters !== undefined && t.filters !== null) p.filters = parseFilters(t.filters);
    const d = p.default ?? 'trigger';
    if (typeof d !== 'string' || !REF_DEFAULTS.includes(d)) throw new Error(`action "${action}": param "${name}": default must be "trigger", "selection", "both" or ""`);
    if (d === 'both' && !p.multi) throw new Error(`action "${action}": param "${name}": default "both" needs multi = true`);
  }
  return p;
}

function sameExpectation(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x) => b.some((y) => y === x)) && b.every((y) => a.some((x) => x === y));
  return a === b;
}

/** The registration-time rules for show_when (§17.2). */
function checkShowWhen(params: ActionParam[], action: string): void {
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const p of params) {
    if (!p.show_when) continue;
    for (const [ctrl, expected] of Object.entries(p.show_when)) {
      const where = `action "${action}": param "${p.name}": show_when`;
      if (ctrl === p.name) throw new Error(`${where} may not reference the param itself`);
      const c = byName.get(ctrl);
      if (!c) throw new Error(`${where} names "${ctrl}", which is not a param of this action`);
      if (c.type === 'info') throw new Error(`${where} may not reference the info param "${ctrl}"`);
      const ok = isScalar(expected) || (Array.isArray(expected) && expected.every(isScalar));
      if (!ok) throw new Error(`${where}: the expectation for "${ctrl}" must be a string, number, boolean or an array of those`);
      for (const [inherited, value] of Object.entries(c.show_when ?? {})) {
        if (!(inherited in p.show_when) || !sameExpectation(p.show_when[inherited], value)) {
          throw new Error(`${where} depends on "${ctrl}", which is shown only when ${inherited} matches; repeat that condition (${inherited}) in this param's show_when`);
        }
      }
    }
  }
}

/** Reads a mah.action table into a definition, or raises what is wrong with it. */
export function parseAction(pluginName: string, raw: unknown, existing: readonly ActionDef[]): ActionDef {
  if (!isTable(raw)) throw new Error('mah.action expects a table');
  for (const field of ['id', 'label', 'entity', 'handler']) {
    if (raw[field] === undefined || raw[field] === null) throw new Error(`missing required field '${field}'`);
  }
  const id = (typeof raw.id === 'number' ? String(raw.id) : (optText(raw.id) ?? '')).toLowerCase();
  if (id === '') throw new Error("'id' must be a non-empty string");
  if (existing.some((a) => a.id === id)) throw new Error(`duplicate action id "${id}"`);
  const label = optText(raw.label);
  if (label === undefined) throw new Error("'label' must be a string");
  if (!isEntity(raw.entity)) throw new Error(`'entity' must be "resource", "note" or "group", got "${String(optText(raw.entity) ?? raw.entity)}"`);
  if (!(raw.handler instanceof LuaFunctionRef)) throw new Error("'handler' must be a function");
  let params: ActionParam[] = [];
  if (raw.params !== undefined && raw.params !== null) {
    const list = asList(raw.params);
    if (!list) throw new Error("'params' must be an array of tables");
    params = [];
    for (const entry of list) {
      if (!isTable(entry) || Array.isArray(entry)) continue;
      const p = parseParam(entry, id);
      if (params.some((q) => q.name === p.name)) throw new Error(`action "${id}": duplicate param name "${p.name}"`);
      params.push(p);
    }
    checkShowWhen(params, id);
  }
  const placementList = raw.placement === undefined || raw.placement === null ? undefined : asList(raw.placement);
  const placement = placementList ? placementList.filter((x): x is string => typeof x === 'string') : ['detail'];
  const def: ActionDef = {
    pluginName,
    id,
    label,
    entity: raw.entity,
    async: raw.async === true,
    bulkMax: typeof raw.bulk_max === 'number' && Number.isFinite(raw.bulk_max) ? Math.max(0, Math.trunc(raw.bulk_max)) : 0,
    placement: placementList === undefined ? ['detail'] : placement,
    filters: parseFilters(raw.filters),
    params,
    handler: raw.handler,
  };
  for (const k of ['description', 'icon', 'confirm'] as const) {
    const v = optText(raw[k]);
    if (v !== undefined) def[k] = v;
  }
  return def;
}

/** Installs mah.action for a plugin holding the `actions` capability. */
export function installActions(plugin: MahPlugin, mah: Record<string, unknown>): void {
  if (!plugin.capabilities.includes('actions')) return;
  mah.action = (raw: unknown) => {
    const def = parseAction(plugin.name, raw, actionsOf(plugin));
    if (plugin.revoked) return;
    const list = registered.get(plugin) ?? [];
    list.push(def);
    registered.set(plugin, list);
  };
}

/** The action descriptor JSON of §17.3. */
export function descriptor(a: ActionDef): Record<string, unknown> {
  const out: Record<string, unknown> = {
    plugin_name: a.pluginName,
    id: a.id,
    label: a.label,
    entity: a.entity,
    placement: a.placement,
    filters: a.filters,
    async: a.async,
    params: a.params.map(paramJson),
  };
  if (a.description !== undefined) out.description = a.description;
  if (a.icon !== undefined) out.icon = a.icon;
  if (a.confirm !== undefined) out.confirm = a.confirm;
  if (a.bulkMax > 0) out.bulk_max = a.bulkMax;
  return out;
}

function paramJson(p: ActionParam): Record<string, unknown> {
  const out: Record<string, unknown> = { name: p.name, type: p.type, label: p.label, required: p.required };
  for (const k of ['default', 'options', 'min', 'max', 'step', 'show_when', 'description', 'entity', 'multi', 'filters'] as const) {
    if (p[k] !== undefined) out[k] = p[k];
  }
  return out;
}

/** What an entity offers to filters: its content type, category and note type. */
export interface FilterValues {
  contentType?: string;
  categoryId?: number;
  noteTypeId?: number;
}

/** Every non-empty filter list needs its value present and listed (§17.3, §17.4). */
export function filtersMatch(f: ActionFilters, v: FilterValues): boolean {
  if (f.content_types?.length && (v.contentType === undefined || !f.content_types.includes(v.contentType))) return false;
  if (f.category_ids?.length && (v.categoryId === undefined || !f.category_ids.includes(v.categoryId))) return false;
  if (f.note_type_ids?.length && (v.noteTypeId === undefined || !f.note_type_ids.includes(v.noteTypeId))) return false;
  return true;
}

export function hasFilters(f: ActionFilters): boolean {
  return Boolean(f.content_types?.length || f.category_ids?.length || f.note_type_ids?.length);
}

/** The loaded plugins and their scoped-access flags, as the manager and the catalogue both give them. */
export interface ActionSource {
  active(): (MahPlugin & { name: string })[];
  openToScoped(name: string): boolean;
}

/**
 * The actions of one entity kind this principal may run (§17.3, §26.2): none for read-only
 * roles, only opened plugins' for a group-limited principal; in plugin-name then registration
 * order. The listing endpoint and the page buttons both start here.
 */
export function runnableActions(source: ActionSource, principal: Principal, entity: string): ActionDef[] {
  if (principal.role === 'guest' && !principal.superUser) return [];
  const plugins = source
    .active()
    .filter((p) => !isScoped(principal) || source.openToScoped(p.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return plugins.flatMap((p) => actionsOf(p).filter((a) => a.entity === entity));
}
