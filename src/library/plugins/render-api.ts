// The registration calls of the rendering surfaces (library-plugins.md §22–§25):
// mah.shortcode, mah.block_type, mah.display_type (capability render) and mah.inject (inject).
// Every call validates its table and raises the spec's messages; a revoked plugin's calls do
// nothing (§9.8).
import { LuaFunctionRef, luaText } from '../../core/lua/index.js';
import { compileMetaSchema } from '../meta/schema.js';
import { PLUGIN_NAME } from './manifest.js';
import type { PluginRegistry } from './registry.js';
import { INJECTION_SLOTS, type BlockTypeFilters, type InjectionSlot } from './render-registry.js';

/** The part of a plugin registration needs (mah.ts's MahPlugin has it). */
interface Registering {
  readonly registry: PluginRegistry;
  readonly revoked: boolean;
}

const TYPE_NAME = /^[a-z][a-z0-9-]{0,49}$/;

function table(v: unknown, fn: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`bad argument #1 to '${fn}' (table expected)`);
  return v as Record<string, unknown>;
}

function fnField(t: Record<string, unknown>, key: string, what: string): LuaFunctionRef {
  const f = t[key];
  if (!(f instanceof LuaFunctionRef)) throw new Error(`${what}: ${key} must be a function`);
  return f;
}

function text(v: unknown): string {
  return luaText(v) ?? (v === null || v === undefined ? '' : String(v));
}

function optionalList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A JSON Schema from Lua; raises when it does not compile. */
function schemaField(t: Record<string, unknown>, key: string, what: string): unknown {
  const v = t[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') throw new Error(`${what}: ${key} must be a table holding a JSON Schema`);
  try {
    compileMetaSchema(JSON.stringify(v));
  } catch (e) {
    throw new Error(`${what}: ${key} is not a valid JSON Schema: ${(e as Error).message.replace(/^meta JSON schema is not a valid JSON Schema: /, '')}`, { cause: e });
  }
  return v;
}

function idList(v: unknown, key: string, what: string): number[] {
  if (v === null || v === undefined) return [];
  const list = Array.isArray(v) ? v : typeof v === 'object' && Object.keys(v).length === 0 ? [] : null;
  if (!list || !list.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 1)) throw new Error(`${what}: filters.${key} must be an array of whole numbers of at least 1`);
  return list as number[];
}

function filtersOf(v: unknown, what: string): BlockTypeFilters {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what}: filters must be a table`);
  const f = v as Record<string, unknown>;
  const out: BlockTypeFilters = {};
  const notes = idList(f.note_type_ids, 'note_type_ids', what);
  const cats = idList(f.category_ids, 'category_ids', what);
  if (notes.length) out.note_type_ids = notes;
  if (cats.length) out.category_ids = cats;
  return out;
}

/** The naming field and pattern of each registration kind (§22–§25). */
const KINDS = {
  shortcode: { key: 'name', pattern: PLUGIN_NAME },
  block_type: { key: 'type', pattern: TYPE_NAME },
  display_type: { key: 'type', pattern: TYPE_NAME },
} as const;

/**
 * The checks every rendering registration starts with: a table, a name matching its kind's
 * pattern and a non-empty label. Answers the table, the name and how messages name the call.
 */
export function typeHeader(arg: unknown, kind: keyof typeof KINDS): { t: Record<string, unknown>; name: string; what: string } {
  const { key, pattern } = KINDS[kind];
  const t = table(arg, kind);
  const name = text(t[key]);
  if (!pattern.test(name)) throw new Error(`mah.${kind}: ${key} must match ${pattern.source}, got "${name}"`);
  const what = `mah.${kind} "${name}"`;
  if (t.label === null || t.label === undefined || text(t.label) === '') throw new Error(`${what}: label is required`);
  return { t, name, what };
}

export function installRender(plugin: Registering, mah: Record<string, unknown>): void {
  const reg = plugin.registry.render;
  mah.shortcode = (arg: unknown) => {
    const { t, name, what } = typeHeader(arg, 'shortcode');
    const render = fnField(t, 'render', what);
    if (reg.shortcodes.has(name)) throw new Error(`${what}: duplicate shortcode`);
    if (plugin.registry.docs.some((d) => d.name === name)) throw new Error(`${what}: conflicts with doc entry of the same name`);
    if (plugin.revoked) return;
    reg.shortcodes.set(name, {
      name,
      label: text(t.label),
      description: luaText(t.description) ?? '',
      attrs: optionalList(t.attrs),
      examples: optionalList(t.examples),
      notes: optionalList(t.notes).map((n) => text(n)),
      render,
    });
  };
  mah.block_type = (arg: unknown) => {
    const { t, name: type, what } = typeHeader(arg, 'block_type');
    const renderView = fnField(t, 'render_view', what);
    const renderEdit = fnField(t, 'render_edit', what);
    const contentSchema = schemaField(t, 'content_schema', what);
    const stateSchema = schemaField(t, 'state_schema', what);
    const filters = filtersOf(t.filters, what);
    if (reg.blockTypes.has(type)) throw new Error(`${what}: duplicate block type`);
    if (plugin.revoked) return;
    reg.blockTypes.set(type, {
      type,
      label: text(t.label),
      icon: luaText(t.icon) ?? '',
      description: luaText(t.description) ?? '',
      contentSchema,
      stateSchema,
      defaultContent: t.default_content ?? null,
      defaultState: t.default_state ?? null,
      filters,
      renderView,
      renderEdit,
    });
  };
  mah.display_type = (arg: unknown) => {
    const { t, name: type, what } = typeHeader(arg, 'display_type');
    const render = fnField(t, 'render', what);
    if (reg.displayTypes.has(type)) throw new Error(`${what}: duplicate display type`);
    if (plugin.revoked) return;
    reg.displayTypes.set(type, { type, label: text(t.label), render });
  };
}

export function installInject(plugin: Registering, mah: Record<string, unknown>): void {
  mah.inject = (slot: unknown, fn: unknown) => {
    const name = text(slot);
    if (!(INJECTION_SLOTS as readonly string[]).includes(name)) {
      throw new Error(`unknown slot "${name}": no template renders it, so this injection could never show. Slots: ${INJECTION_SLOTS.join(', ')}`);
    }
    if (!(fn instanceof LuaFunctionRef)) throw new Error("bad argument #2 to 'inject' (function expected)");
    if (plugin.revoked) return;
    plugin.registry.render.inject(name as InjectionSlot, fn);
  };
}
