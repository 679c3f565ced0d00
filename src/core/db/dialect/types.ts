// The dialect seam: everything SQLite and PostgreSQL spell differently is one member of this
// interface, implemented once per engine (sqlite.ts, postgres.ts). Code outside src/core/db
// never asks which engine it runs on; it asks the dialect for the fragment it needs.
//
// Fragments are SQL text over expressions the caller supplies (column references, aliases) and
// values bound through a Binder, so the MRQL compiler (which writes text) and repositories
// (which use Kysely; see `fragment` in ../sql-text.ts) share one implementation.
import type { ColumnDataType, CreateTableBuilder } from 'kysely';

export type DbKind = 'sqlite' | 'postgres';

/** What dialect fragments need to bind a value. */
export interface Binder {
  /** A bound value; returns the marker that stands for it in SQL text. */
  p(value: unknown): string;
}

/** One JSON path inside a JSON column, as the expressions callers compare and sort on. */
export interface JsonPathExprs {
  /** The JSON node itself (SQLite: the extracted SQL value; PostgreSQL: jsonb). */
  node: string;
  /** The engine's type name of the node ('null' for JSON null, NULL when absent). */
  rawType: string;
  /** The engine's type name of the node, NULL when absent or JSON null. */
  kind: string;
  /** The value as a comparable SQL scalar (SQLite: typed; PostgreSQL: text). */
  value: string;
  /** The value as text (booleans as 'true'/'false'). */
  text: string;
  /** True when the node is a JSON number. */
  isNumber: string;
  /** The node as a number (only meaningful where isNumber holds). */
  num: string;
  /** True when the key is absent or JSON null. */
  isNull: string;
  /** True when the node is JSON true / false. */
  isTrue: string;
  isFalse: string;
  /** True when the node is a JSON string. */
  isString: string;
}

export type JsonType = 'number' | 'string' | 'boolean' | 'null' | 'object' | 'array';

export interface Dialect {
  readonly kind: DbKind;

  // ---- statements
  /** Placeholder of the n-th (1-based) bound value in executed text. */
  placeholder(n: number): string;
  /** A bound text value marker typed so functions resolve without guessing. */
  textParam(marker: string): string;

  // ---- schema (migrations)
  readonly columnType: { json: ColumnDataType; timestamp: ColumnDataType; bool: ColumnDataType };
  /** Adds the auto-increment integer primary key `id`. */
  withId<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** Column defaults written as SQL literals. */
  readonly literal: { emptyJsonObject: string; false: string };
  /**
   * DDL whose whole shape differs by engine (full-text tables, collations, extensions). Only
   * migrations may use it (lint enforces this); queries get a named member instead.
   */
  byEngine<T>(choices: { sqlite: T; postgres: T }): T;

  // ---- text
  /** A case-folded form of a text expression, ordered byte-wise on both engines. */
  fold(expr: string): string;
  /** Case-insensitive LIKE of `expr` against a LIKE pattern (escape character \). */
  ilike(b: Binder, expr: string, pattern: string): string;
  /** Text form of a non-text scalar column. */
  castText(expr: string): string;

  // ---- JSON
  /**
   * The one translation of a path inside a JSON column (meta paths of MetaQuery, MRQL, SortBy
   * and metadata keys). Segments made of letters, digits and _ are written into the text, so
   * expression indexes apply; any other segment makes the whole path a bound value.
   */
  jsonPath(b: Binder, column: string, path: readonly string[]): JsonPathExprs;
  /** A bound JSON literal comparable with `JsonPathExprs.node`. */
  jsonLiteral(b: Binder, value: string | number | boolean | null): string;
  /** True when `exprs.node` holds a JSON value of `type`. */
  jsonTypeIs(exprs: JsonPathExprs, type: JsonType): string;
  /**
   * The keys of the JSON object at `exprs` (a jsonPath; the empty path is the whole document)
   * as a FROM item named `alias`, with the expression of one key. No rows when the node is
   * absent or not an object.
   */
  jsonObjectKeys(exprs: JsonPathExprs, alias: string): { from: string; key: string };

  // ---- catalog
  /** A statement listing `table_name, column_name` of every table and view, columns in declared order. */
  readonly columnCatalog: string;
}

/** Path segments that may be written into SQL text (MRQL re-checks them, mrql.md §21.1). */
export const SAFE_SEGMENT = /^[A-Za-z0-9_]+$/;
