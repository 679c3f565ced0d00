// PostgreSQL's spelling of the dialect seam (jsonb operators, ILIKE, `$n` placeholders).
import type { CreateTableBuilder } from 'kysely';
import { SAFE_SEGMENT, type Binder, type Dialect, type JsonPathExprs } from './types.js';

/** '{a,b}' written into the text when every segment is plain, else a bound text[]. */
function pathText(b: Binder, path: readonly string[]): string {
  if (path.every((s) => SAFE_SEGMENT.test(s))) return `'{${path.join(',')}}'`;
  return `CAST(${b.p([...path])} AS text[])`;
}

export const postgresDialect: Dialect = {
  kind: 'postgres',
  placeholder: (n) => `$${n}`,
  textParam: (marker) => `CAST(${marker} AS text)`,

  columnType: { json: 'jsonb', timestamp: 'timestamptz', bool: 'boolean' },
  withId: <T extends string>(table: CreateTableBuilder<T, never>) => table.addColumn('id', 'serial', (c) => c.primaryKey()),
  literal: { emptyJsonObject: "'{}'::jsonb", false: 'false' },
  byEngine: (choices) => choices.postgres,

  // "C" collation: byte order, the same order SQLite's lower() gives.
  fold: (expr) => `lower(${expr}) COLLATE "C"`,
  ilike: (b, expr, pattern) => `${expr} ILIKE CAST(${b.p(pattern)} AS text) ESCAPE '\\'`,
  castText: (expr) => `CAST(${expr} AS text)`,

  jsonPath(b, column, path): JsonPathExprs {
    const p = pathText(b, path);
    const node = `(${column} #> ${p})`;
    const text = `(${column} #>> ${p})`;
    return {
      node,
      rawType: `jsonb_typeof(${node})`,
      kind: `NULLIF(jsonb_typeof(${node}), 'null')`,
      value: text,
      text,
      isNumber: `jsonb_typeof(${node}) = 'number'`,
      num: `${text}::numeric`,
      isNull: `(${node} IS NULL OR jsonb_typeof(${node}) = 'null')`,
      isTrue: `${node} = 'true'::jsonb`,
      isFalse: `${node} = 'false'::jsonb`,
      isString: `jsonb_typeof(${node}) = 'string'`,
    };
  },
  jsonLiteral: (b, value) => `CAST(${b.p(JSON.stringify(value))} AS jsonb)`,
  jsonTypeIs: (exprs, type) => `${exprs.rawType} = '${type}'`,
  jsonObjectKeys: (exprs, alias) => ({ from: `jsonb_object_keys(CASE WHEN ${exprs.rawType} = 'object' THEN ${exprs.node} ELSE '{}'::jsonb END) ${alias}`, key: alias }),

  columnCatalog: `SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
};
