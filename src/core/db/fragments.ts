// Kysely expressions built from the dialect's text fragments, for repositories. Column names
// are quoted here; values are always bound.
import type { RawBuilder, SqlBool } from 'kysely';
import type { Dialect, JsonPathExprs } from './dialect/index.js';
import { fragment, type SqlText } from './sql-text.js';
import { escapeLike } from './values.js';

/** `table.column` (or `column`) as a quoted identifier. */
export function ref(column: string): string {
  return column
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');
}

/** Case-insensitive substring match of a column against user text. */
export function containsText(d: Dialect, column: string, text: string): RawBuilder<SqlBool> {
  return fragment(d, (b) => d.ilike(b, ref(column), `%${escapeLike(text)}%`));
}

/** An expression over one JSON path of a JSON column (see Dialect.jsonPath). */
export function jsonPathExpr<T = unknown>(d: Dialect, column: string, path: readonly string[], pick: (e: JsonPathExprs, b: SqlText) => string): RawBuilder<T> {
  return fragment(d, (b) => pick(d.jsonPath(b, ref(column), path), b));
}
