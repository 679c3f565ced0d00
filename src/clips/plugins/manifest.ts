// The plugin manifest (companion §8.1, §8.7, §8.11): read statically from the source's
// `Plugin` table and normalised. Unknown or malformed entries are dropped, not errors; only a
// missing table or name refuses the plugin.
import { ManifestError, readPluginTable, type LuaLiteral, type LuaTableLiteral } from './lua-table.js';

export { ManifestError };

export const EVENT_NAMES = [
  'app:startup',
  'app:shutdown',
  'clip:created',
  'clip:deleted',
  'clip:archived',
  'clip:unarchived',
  'clip:renamed',
  'watch:file_detected',
  'watch:import_complete',
  'tag:created',
  'tag:updated',
  'tag:deleted',
  'tag:added_to_clip',
  'tag:removed_from_clip',
] as const;

export interface SettingField {
  key: string;
  type: 'text' | 'password' | 'checkbox' | 'select';
  label: string;
  description?: string;
  default?: string | number | boolean;
  options?: unknown[];
}

export interface OptionField {
  id: string;
  type: 'text' | 'password' | 'checkbox' | 'select' | 'range';
  label: string;
  required?: boolean;
  default?: string | number | boolean;
  choices?: { value: string | number | boolean; label: string }[];
  min?: number;
  max?: number;
  step?: number;
}

export interface UiAction {
  id: string;
  label: string;
  icon?: string;
  async?: boolean;
  options?: OptionField[];
  file_types?: string[];
  max_size?: number;
}

export const ACTION_LISTS = ['lightbox_buttons', 'card_actions', 'global_actions'] as const;
export type ActionList = (typeof ACTION_LISTS)[number];

export interface Manifest {
  name: string;
  version: string;
  description: string;
  author: string;
  events: string[];
  /** Host (or `*.domain`) → upper-case methods. */
  network: Record<string, string[]>;
  filesystem: { read: boolean; write: boolean };
  clipboard: boolean;
  schedules: { name: string; interval: number }[];
  settings: SettingField[];
  ui: Record<ActionList, UiAction[]>;
}

type Table = LuaTableLiteral;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && 'items' in v;
const str = (v: LuaLiteral | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: LuaLiteral | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const bool = (v: LuaLiteral | undefined): boolean => v === true;
const scalar = (v: LuaLiteral | undefined): string | number | boolean | undefined => (isTable(v) ? undefined : v);
const list = (v: LuaLiteral | undefined): LuaLiteral[] => (isTable(v) ? v.items : []);

/** A table literal as plain JSON (items as an array when there are no keyed fields). */
export function literalToJson(v: LuaLiteral): unknown {
  if (!isTable(v)) return v;
  if (v.fields.size === 0) return v.items.map(literalToJson);
  const out: Record<string, unknown> = {};
  v.items.forEach((item, i) => (out[String(i + 1)] = literalToJson(item)));
  for (const [k, item] of v.fields) out[k] = literalToJson(item);
  return out;
}

function setting(v: LuaLiteral): SettingField | null {
  if (!isTable(v)) return null;
  const key = str(v.fields.get('key'));
  const type = str(v.fields.get('type'));
  const label = str(v.fields.get('label'));
  if (!key || !label || !type || !['text', 'password', 'checkbox', 'select'].includes(type)) return null;
  const options = v.fields.get('options');
  if (type === 'select' && !isTable(options)) return null;
  const out: SettingField = { key, type: type as SettingField['type'], label };
  const description = str(v.fields.get('description'));
  if (description !== undefined) out.description = description;
  const dflt = scalar(v.fields.get('default'));
  if (dflt !== undefined) out.default = dflt;
  if (isTable(options)) out.options = options.items.map(literalToJson);
  return out;
}

function optionField(v: LuaLiteral): OptionField | null {
  if (!isTable(v)) return null;
  const id = str(v.fields.get('id'));
  const type = str(v.fields.get('type'));
  const label = str(v.fields.get('label'));
  if (!id || !label || !type || !['text', 'password', 'checkbox', 'select', 'range'].includes(type)) return null;
  const out: OptionField = { id, type: type as OptionField['type'], label };
  if (v.fields.has('required')) out.required = bool(v.fields.get('required'));
  const dflt = scalar(v.fields.get('default'));
  if (dflt !== undefined) out.default = dflt;
  const choices = list(v.fields.get('choices'))
    .filter(isTable)
    .map((c) => ({ value: scalar(c.fields.get('value')), label: str(c.fields.get('label')) ?? String(scalar(c.fields.get('value')) ?? '') }))
    .filter((c): c is { value: string | number | boolean; label: string } => c.value !== undefined);
  if (type === 'select' && choices.length === 0) return null;
  if (choices.length > 0) out.choices = choices;
  for (const k of ['min', 'max', 'step'] as const) {
    const n = num(v.fields.get(k));
    if (n !== undefined) out[k] = n;
  }
  return out;
}

function action(v: LuaLiteral): UiAction | null {
  if (!isTable(v)) return null;
  const id = str(v.fields.get('id'));
  const label = str(v.fields.get('label'));
  if (!id || !label) return null;
  const out: UiAction = { id, label };
  const icon = str(v.fields.get('icon'));
  if (icon !== undefined) out.icon = icon;
  if (v.fields.has('async')) out.async = bool(v.fields.get('async'));
  if (v.fields.has('options')) out.options = list(v.fields.get('options')).map(optionField).filter((o): o is OptionField => o !== null);
  if (v.fields.has('file_types')) out.file_types = list(v.fields.get('file_types')).filter((t): t is string => typeof t === 'string');
  const maxSize = num(v.fields.get('max_size'));
  if (maxSize !== undefined) out.max_size = maxSize;
  return out;
}

/** Parses and normalises the manifest; throws ManifestError with the spec's reasons. */
export function parseManifest(source: string): Manifest {
  const table = readPluginTable(source);
  if (!table) throw new ManifestError('plugin must define a Plugin table');
  const f = table.fields;
  const name = str(f.get('name'))?.trim();
  if (!name) throw new ManifestError('plugin must have a name');

  const network: Record<string, string[]> = {};
  const net = f.get('network');
  if (isTable(net)) {
    for (const [host, methods] of net.fields) {
      network[host.toLowerCase()] = list(methods).filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase());
    }
  }
  const fsDecl = f.get('filesystem');
  const ui = f.get('ui');
  const uiLists = {} as Record<ActionList, UiAction[]>;
  for (const k of ACTION_LISTS) {
    uiLists[k] = isTable(ui) ? list(ui.fields.get(k)).map(action).filter((a): a is UiAction => a !== null) : [];
  }

  return {
    name,
    version: str(f.get('version')) ?? '',
    description: str(f.get('description')) ?? '',
    author: str(f.get('author')) ?? '',
    events: list(f.get('events')).filter((e): e is string => typeof e === 'string'),
    network,
    filesystem: { read: isTable(fsDecl) && bool(fsDecl.fields.get('read')), write: isTable(fsDecl) && bool(fsDecl.fields.get('write')) },
    clipboard: bool(f.get('clipboard')),
    schedules: list(f.get('schedules'))
      .filter(isTable)
      .map((s) => ({ name: str(s.fields.get('name')) ?? '', interval: num(s.fields.get('interval')) ?? 0 }))
      .filter((s) => s.name !== '' && s.interval > 0),
    settings: list(f.get('settings')).map(setting).filter((s): s is SettingField => s !== null),
    ui: uiLists,
  };
}

/** Lua function name of an event's handler (companion §8.5). */
export function handlerName(event: string): string {
  return event.startsWith('app:') ? `on_${event.slice(4)}` : `on_${event.replace(/:/g, '_')}`;
}

/** Events the manifest names that the host does not know (kept, but worth a warning). */
export function unknownEvents(m: Manifest): string[] {
  return m.events.filter((e) => !(EVENT_NAMES as readonly string[]).includes(e));
}
