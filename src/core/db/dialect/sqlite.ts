// SQLite's spelling of the dialect seam (JSON1 functions, lower() folding, `?` placeholders).
import type { CreateTableBuilder } from 'kysely';
import { SAFE_SEGMENT, type Binder, type Dialect, type JsonPathExprs, type JsonType } from './types.js';

const TYPE_NAMES: Record<JsonType, string[]> = {
  number: ['integer', 'real'],
  string: ['text'],
  boolean: ['true', 'false'],
  null: ['null'],
  object: ['object'],
  array: ['array'],
};

/** '$.a.b' ('$' for the whole document) written into the text when every segment is plain, else a bound quoted path. */
function pathText(b: Binder, path: readonly string[]): string {
  if (path.every((s) => SAFE_SEGMENT.test(s))) return `'$${path.map((s) => `.${s}`).join('')}'`;
  return b.p('$' + path.map((s) => `."${s.replace(/"/g, '\\"')}"`).join(''));
}

export const sqliteDialect: Dialect = {
  kind: 'sqlite',
  placeholder: () => '?',
  textParam: (marker) => marker,

  columnType: { json: 'text', timestamp: 'text', bool: 'integer' },
  withId: <T extends string>(table: CreateTableBuilder<T, never>) => table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  literal: { emptyJsonObject: "'{}'", false: '0' },
  byEngine: (choices) => choices.sqlite,

  fold: (expr) => `lower(${expr})`,
  ilike: (b, expr, pattern) => `lower(${expr}) LIKE lower(${b.p(pattern)}) ESCAPE '\\'`,
  castText: (expr) => `CAST(${expr} AS TEXT)`,

  jsonPath(b, column, path): JsonPathExprs {
    const p = pathText(b, path);
    const type = `json_type(${column}, ${p})`;
    const value = `json_extract(${column}, ${p})`;
    return {
      node: value,
      rawType: type,
      kind: `NULLIF(${type}, 'null')`,
      value,
      text: `(CASE ${type} WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(${value} AS TEXT) END)`,
      isNumber: `${type} IN ('integer', 'real')`,
      num: value,
      isNull: `(${type} IS NULL OR ${type} = 'null')`,
      isTrue: `${type} = 'true'`,
      isFalse: `${type} = 'false'`,
      isString: `${type} = 'text'`,
    };
  },
  // json_extract hands back SQL values: JSON true/false compare as 1/0.
  jsonLiteral: (b, value) => b.p(typeof value === 'boolean' ? (value ? 1 : 0) : value),
  jsonTypeIs: (exprs, type) => `${exprs.rawType} IN (${TYPE_NAMES[type].map((t) => `'${t}'`).join(', ')})`,
  jsonObjectKeys: (exprs, alias) => ({ from: `json_each(CASE WHEN ${exprs.rawType} = 'object' THEN ${exprs.node} END) ${alias}`, key: `${alias}.key` }),

  columnCatalog: `SELECT m.name AS table_name, p.name AS column_name
    FROM sqlite_master m JOIN pragma_table_info(m.name) p
    WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid`,
};
