// The built-in block types (contract: Note block, block content and state shapes): their
// defaults, and the checks that normalise content and state on every write. Unknown keys are
// dropped; a wrong shape is a 400 naming the field.
import { badRequest } from '../../core/http/errors.js';
import type { JsonObject } from './records.js';
import {
  arrayAt,
  booleanAt,
  dateAt,
  fail,
  idListAt,
  integerAt,
  isObject,
  isScalar,
  objectAt,
  oneOf,
  optionalString,
  stringAt,
  timestampAt,
} from './shape.js';

/** Looks up referenced rows while content is checked. */
export interface RefChecker {
  /** The first id that has no row in the table, if any. */
  firstMissing(table: 'resources' | 'groups' | 'queries', ids: number[]): Promise<number | undefined>;
}

export interface BlockType {
  type: string;
  defaultContent: () => JsonObject;
  defaultState: () => JsonObject;
  content: (raw: JsonObject, refs: RefChecker) => Promise<JsonObject>;
  /** Checks state against the block's (already valid) content. */
  state: (raw: JsonObject, content: JsonObject) => JsonObject;
}

export const LIMITS = {
  ids: 1000,
  todoItems: 1000,
  tableColumns: 200,
  tableRows: 5000,
  calendars: 50,
  customEvents: 500,
  text: 1_000_000,
} as const;

async function requireRefs(refs: RefChecker, table: 'resources' | 'groups' | 'queries', ids: number[], field: string, label: string): Promise<void> {
  const missing = await refs.firstMissing(table, ids);
  if (missing !== undefined) throw badRequest(`${field} names ${label} ${missing}, which does not exist`);
}

function text(v: unknown, field: string, fallback = ''): string {
  const s = stringAt(v, field, fallback);
  if (s.length > LIMITS.text) fail(field, `must be at most ${LIMITS.text} characters`);
  return s;
}

const noState = () => ({});

const textType: BlockType = {
  type: 'text',
  defaultContent: () => ({ text: '' }),
  defaultState: () => ({}),
  content: async (c) => ({ text: text(c.text, 'content.text') }),
  state: noState,
};

const headingType: BlockType = {
  type: 'heading',
  defaultContent: () => ({ text: '', level: 2 }),
  defaultState: () => ({}),
  content: async (c) => ({ text: text(c.text, 'content.text'), level: c.level === undefined ? 2 : integerAt(c.level, 'content.level', 1, 6) }),
  state: noState,
};

const dividerType: BlockType = {
  type: 'divider',
  defaultContent: () => ({}),
  defaultState: () => ({}),
  content: async () => ({}),
  state: noState,
};

const galleryType: BlockType = {
  type: 'gallery',
  defaultContent: () => ({ resourceIds: [] }),
  defaultState: () => ({ layout: 'grid' }),
  content: async (c, refs) => {
    const resourceIds = c.resourceIds === undefined ? [] : idListAt(c.resourceIds, 'content.resourceIds', LIMITS.ids);
    await requireRefs(refs, 'resources', resourceIds, 'content.resourceIds', 'resource');
    return { resourceIds };
  },
  state: (s) => (s.layout === undefined ? {} : { layout: oneOf(s.layout, 'state.layout', ['grid', 'list']) }),
};

const referencesType: BlockType = {
  type: 'references',
  defaultContent: () => ({ groupIds: [] }),
  defaultState: () => ({}),
  content: async (c, refs) => {
    if (c.groupIds === undefined) fail('content.groupIds', 'is required (it may be empty)');
    const groupIds = idListAt(c.groupIds, 'content.groupIds', LIMITS.ids);
    await requireRefs(refs, 'groups', groupIds, 'content.groupIds', 'group');
    return { groupIds };
  },
  state: noState,
};

const todosType: BlockType = {
  type: 'todos',
  defaultContent: () => ({ items: [] }),
  defaultState: () => ({ checked: [] }),
  content: async (c) => {
    const raw = c.items === undefined ? [] : arrayAt(c.items, 'content.items', LIMITS.todoItems);
    const seen = new Set<string>();
    const items = raw.map((item, i) => {
      const field = `content.items[${i}]`;
      const o = objectAt(item, field);
      const id = stringAt(o.id, `${field}.id`);
      if (id === '') fail(`${field}.id`, 'must not be empty');
      if (seen.has(id)) fail(`${field}.id`, `repeats the id "${id}"; item ids must be unique`);
      seen.add(id);
      return { id, label: text(stringAt(o.label, `${field}.label`), `${field}.label`) };
    });
    return { items };
  },
  state: (s, content) => {
    if (s.checked === undefined) return { checked: [] };
    const ids = new Set((content.items as { id: string }[]).map((i) => i.id));
    const checked = arrayAt(s.checked, 'state.checked', LIMITS.todoItems).map((v, i) => {
      const id = stringAt(v, `state.checked[${i}]`);
      if (!ids.has(id)) fail(`state.checked[${i}]`, `names "${id}", which is not an item of this list`);
      return id;
    });
    return { checked: [...new Set(checked)] };
  },
};

function columnIdOf(col: unknown): string {
  return typeof col === 'string' ? col : String((col as JsonObject).id);
}

const tableType: BlockType = {
  type: 'table',
  defaultContent: () => ({ columns: [], rows: [] }),
  defaultState: () => ({}),
  content: async (c, refs) => {
    const hasStatic = (Array.isArray(c.columns) && c.columns.length > 0) || (Array.isArray(c.rows) && c.rows.length > 0);
    if (c.queryId !== undefined && c.queryId !== null) {
      if (hasStatic) throw badRequest('content: a table block holds either static data (columns and rows) or a query (queryId), never both');
      const queryId = integerAt(c.queryId, 'content.queryId', 1);
      await requireRefs(refs, 'queries', [queryId], 'content.queryId', 'saved query');
      const queryParams: JsonObject = {};
      if (c.queryParams !== undefined && c.queryParams !== null) {
        for (const [k, v] of Object.entries(objectAt(c.queryParams, 'content.queryParams'))) {
          if (!isScalar(v)) fail(`content.queryParams.${k}`, 'must be a string, number, boolean or null');
          queryParams[k] = v;
        }
      }
      const out: JsonObject = { queryId, queryParams };
      if (c.isStatic !== undefined && c.isStatic !== null) out.isStatic = booleanAt(c.isStatic, 'content.isStatic');
      return out;
    }
    if (c.isStatic !== undefined && c.isStatic !== null) fail('content.isStatic', 'is only valid together with queryId');
    const columns = (c.columns === undefined ? [] : arrayAt(c.columns, 'content.columns', LIMITS.tableColumns)).map((col, i) => {
      const field = `content.columns[${i}]`;
      if (typeof col === 'string') {
        if (col === '') fail(field, 'must not be empty');
        return col;
      }
      const o = objectAt(col, field);
      const id = stringAt(o.id, `${field}.id`);
      if (id === '') fail(`${field}.id`, 'must not be empty');
      return { id, label: stringAt(o.label, `${field}.label`, id) };
    });
    const ids = columns.map(columnIdOf);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) fail('content.columns', `repeat the column id "${dup}"; column ids must be unique`);
    const rows = (c.rows === undefined ? [] : arrayAt(c.rows, 'content.rows', LIMITS.tableRows)).map((row, i) => {
      const o = objectAt(row, `content.rows[${i}]`);
      for (const [k, v] of Object.entries(o)) {
        if (!isScalar(v)) fail(`content.rows[${i}].${k}`, 'must be a string, number, boolean or null');
      }
      return o;
    });
    return { columns, rows };
  },
  state: (s) => {
    const out: JsonObject = {};
    if (s.sortColumn !== undefined && s.sortColumn !== null) out.sortColumn = stringAt(s.sortColumn, 'state.sortColumn');
    if (s.sortDirection !== undefined && s.sortDirection !== null) out.sortDirection = oneOf(s.sortDirection, 'state.sortDirection', ['asc', 'desc']);
    return out;
  },
};

const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

function calendarSource(v: unknown, field: string): JsonObject {
  const o = objectAt(v, field);
  const type = oneOf(o.type, `${field}.type`, ['url', 'resource']);
  if (type === 'url') {
    const url = stringAt(o.url, `${field}.url`);
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      fail(`${field}.url`, 'is not a valid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`${field}.url`, 'must use http or https');
    return { type, url };
  }
  return { type, resourceId: integerAt(o.resourceId, `${field}.resourceId`, 1) };
}

const calendarType: BlockType = {
  type: 'calendar',
  defaultContent: () => ({ calendars: [] }),
  defaultState: () => ({ view: 'month', customEvents: [] }),
  content: async (c, refs) => {
    const seen = new Set<string>();
    const calendars = (c.calendars === undefined ? [] : arrayAt(c.calendars, 'content.calendars', LIMITS.calendars)).map((cal, i) => {
      const field = `content.calendars[${i}]`;
      const o = objectAt(cal, field);
      const id = stringAt(o.id, `${field}.id`);
      if (id === '' || id === 'custom') fail(`${field}.id`, id === '' ? 'must not be empty' : 'may not be "custom" (reserved for custom events)');
      if (seen.has(id)) fail(`${field}.id`, `repeats the id "${id}"; calendar ids must be unique`);
      seen.add(id);
      const out: JsonObject = { id, name: stringAt(o.name, `${field}.name`, id) };
      if (o.color !== undefined && o.color !== null && o.color !== '') {
        const color = stringAt(o.color, `${field}.color`);
        if (!COLOR.test(color)) fail(`${field}.color`, 'must be a hex colour such as #3366ff');
        out.color = color;
      }
      out.source = calendarSource(o.source, `${field}.source`);
      return out;
    });
    const resourceIds = calendars.map((cal) => (cal.source as JsonObject).resourceId).filter((id): id is number => typeof id === 'number');
    await requireRefs(refs, 'resources', [...new Set(resourceIds)], 'content.calendars', 'resource');
    return { calendars };
  },
  state: (s) => {
    const out: JsonObject = {};
    if (s.view !== undefined && s.view !== null) out.view = oneOf(s.view, 'state.view', ['month', 'agenda']);
    if (s.currentDate !== undefined && s.currentDate !== null && s.currentDate !== '') out.currentDate = dateAt(s.currentDate, 'state.currentDate');
    const seen = new Set<string>();
    out.customEvents = (s.customEvents === undefined || s.customEvents === null ? [] : arrayAt(s.customEvents, 'state.customEvents', LIMITS.customEvents)).map((e, i) => {
      const field = `state.customEvents[${i}]`;
      const o = objectAt(e, field);
      const id = stringAt(o.id, `${field}.id`);
      if (id === '') fail(`${field}.id`, 'must not be empty');
      if (seen.has(id)) fail(`${field}.id`, `repeats the id "${id}"; event ids must be unique`);
      seen.add(id);
      const start = timestampAt(o.start, `${field}.start`);
      const end = timestampAt(o.end, `${field}.end`);
      if (end < start) fail(`${field}.end`, 'is before its start');
      if (o.calendarId !== undefined && o.calendarId !== 'custom') fail(`${field}.calendarId`, 'must be "custom"');
      const event: JsonObject = {
        id,
        title: stringAt(o.title, `${field}.title`),
        start: o.start,
        end: o.end,
        allDay: o.allDay === undefined ? false : booleanAt(o.allDay, `${field}.allDay`),
        calendarId: 'custom',
      };
      const location = optionalString(o.location, `${field}.location`);
      const description = optionalString(o.description, `${field}.description`);
      if (location !== undefined) event.location = location;
      if (description !== undefined) event.description = description;
      return event;
    });
    return out;
  },
};

const BUILT_IN: BlockType[] = [textType, headingType, dividerType, galleryType, referencesType, todosType, tableType, calendarType];
const REGISTRY = new Map(BUILT_IN.map((t) => [t.type, t]));

export function blockType(type: string): BlockType {
  const t = REGISTRY.get(type);
  if (!t) throw badRequest(`unknown block type "${type}" (built-in types: ${BUILT_IN.map((b) => b.type).join(', ')})`);
  return t;
}

export function builtInTypes(): BlockType[] {
  return BUILT_IN;
}

export { isObject };
