// MetaQuery (companion §4.2): `key:value` (contains) or `key:OP:value` conditions on an entity's
// JSON meta, turned into one parameterised SQL condition. Every key and value is bound as a
// parameter; nothing the client sends is spliced into the SQL text.
import type { RawBuilder, SqlBool } from 'kysely';
import type { Dialect, JsonType } from '../../core/db/dialect/index.js';
import { ref } from '../../core/db/fragments.js';
import { fragment, type SqlText } from '../../core/db/sql-text.js';
import { escapeLike } from '../../core/db/values.js';

export const META_OPERATORS = ['EQ', 'LI', 'NE', 'NL', 'GT', 'GE', 'LT', 'LE'] as const;
export type MetaOperator = (typeof META_OPERATORS)[number];
export type MetaValue = string | number | boolean | null;

export interface MetaCondition {
  /** Dot path inside meta, without any parent./child. prefix. */
  path: string[];
  op: MetaOperator;
  value: MetaValue;
  /** The value text as given (used by the contains operators). */
  text: string;
  scope: 'self' | 'parent' | 'child';
}

/** Typed value: true/false, null, "quoted" text, numbers, else text. */
export function typedValue(text: string): MetaValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1);
  if (text.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

/** Parses one MetaQuery value; returns null for values the reference ignores. */
export function parseMetaQuery(raw: string, allowScopes: boolean): MetaCondition | null {
  const parts = raw.split(':');
  if (parts.length < 2) return null;
  let key: string;
  let op: MetaOperator = 'LI';
  let text: string;
  if (parts.length >= 3 && (META_OPERATORS as readonly string[]).includes(parts[1])) {
    key = parts[0];
    op = parts[1] as MetaOperator;
    text = parts.slice(2).join(':');
  } else {
    key = parts[0];
    text = parts.slice(1).join(':');
  }
  if (key.trim() === '') return null;
  let scope: MetaCondition['scope'] = 'self';
  if (allowScopes && key.startsWith('parent.')) {
    scope = 'parent';
    key = key.slice('parent.'.length);
  } else if (allowScopes && key.startsWith('child.')) {
    scope = 'child';
    key = key.slice('child.'.length);
  }
  const path = key.split('.');
  if (path.some((s) => s === '')) return null;
  return { path, op, value: typedValue(text), text, scope };
}

function condition(d: Dialect, b: SqlText, column: string, c: MetaCondition): string {
  const m = d.jsonPath(b, column, c.path);
  const literal = () => d.jsonLiteral(b, c.value);
  // Ordering comparisons only hold between values of the same JSON type, so a string "5" is
  // never greater than the number 4 on either engine (SQLite alone would order text above numbers).
  const ordered = (op: string) => `(${d.jsonTypeIs(m, jsonTypeOf(c.value))} AND ${m.node} ${op} ${literal()})`;
  const pattern = `%${escapeLike(c.value === null ? c.text : String(c.value))}%`;
  // The contains operators match the JSON text of the node (PostgreSQL keeps a string's quotes).
  const asText = d.castText(m.node);
  switch (c.op) {
    case 'EQ':
      return c.value === null ? m.isNull : `${m.node} = ${literal()}`;
    case 'NE':
      return c.value === null ? `NOT ${m.isNull}` : `${m.node} <> ${literal()}`;
    case 'LI':
      return `${asText} LIKE ${b.p(pattern)} ESCAPE '\\'`;
    case 'NL':
      return `${asText} NOT LIKE ${b.p(pattern)} ESCAPE '\\'`;
    case 'GT':
      return ordered('>');
    case 'GE':
      return ordered('>=');
    case 'LT':
      return ordered('<');
    case 'LE':
      return ordered('<=');
  }
}

function jsonTypeOf(v: MetaValue): JsonType {
  return typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : v === null ? 'null' : 'string';
}

/** AND of the conditions, except several EQ conditions on one key, which are OR-ed together. */
function combine(d: Dialect, b: SqlText, column: string, conditions: MetaCondition[]): string {
  const eqByKey = new Map<string, MetaCondition[]>();
  const terms: string[] = [];
  for (const c of conditions) {
    if (c.op === 'EQ') {
      const k = c.path.join('.');
      eqByKey.set(k, [...(eqByKey.get(k) ?? []), c]);
    } else {
      terms.push(condition(d, b, column, c));
    }
  }
  for (const group of eqByKey.values()) {
    const ors = group.map((c) => condition(d, b, column, c));
    terms.push(ors.length === 1 ? ors[0] : `(${ors.join(' OR ')})`);
  }
  return `(${terms.join(' AND ')})`;
}

/**
 * The SQL condition for MetaQuery values on `table` (its `meta` column). Groups also accept
 * parent.<key> (the direct owner's meta) and child.<key> (any direct child's meta).
 */
export function metaQueryCondition(d: Dialect, table: string, values: string[], groups = false): RawBuilder<SqlBool> | null {
  const parsed = values.map((v) => parseMetaQuery(v, groups)).filter((c): c is MetaCondition => c !== null);
  if (parsed.length === 0) return null;
  return fragment<SqlBool>(d, (b) => {
    const parts: string[] = [];
    const own = parsed.filter((c) => c.scope === 'self');
    if (own.length) parts.push(combine(d, b, ref(`${table}.meta`), own));
    const parent = parsed.filter((c) => c.scope === 'parent');
    if (parent.length) {
      parts.push(`EXISTS (SELECT 1 FROM "groups" mq_parent WHERE mq_parent.id = ${ref(`${table}.owner_id`)} AND ${combine(d, b, 'mq_parent.meta', parent)})`);
    }
    const child = parsed.filter((c) => c.scope === 'child');
    if (child.length) {
      parts.push(`EXISTS (SELECT 1 FROM "groups" mq_child WHERE mq_child.owner_id = ${ref(`${table}.id`)} AND ${combine(d, b, 'mq_child.meta', child)})`);
    }
    return `(${parts.join(' AND ')})`;
  });
}
