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
  /** True when the node is the empty JSON string. */
  isEmptyString: string;
}

/** Rows as the driver returns them. */
export type SqlRow = Record<string, unknown>;

/** Full-text search terms: the user's text and the words the caller extracted from it. */
export interface FullTextTerms {
  term: string;
  words: readonly string[];
}

export type DateBucket = 'day' | 'week' | 'month' | 'year';

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
  /** Text compared byte-wise (the order `fold` gives), without folding. */
  byteOrder(expr: string): string;
  /**
   * An expression that must share one type with text (COALESCE, CASE): PostgreSQL needs the
   * cast, SQLite's dynamic typing keeps the value as it is.
   */
  unifyText(expr: string): string;
  /** Case-insensitive regular-expression match, or null where the engine has none. */
  readonly regex: { match(b: Binder, expr: string, pattern: string, negated: boolean): string } | null;

  // ---- ordering
  /** ORDER BY suffix that sorts NULLs lowest (first ascending, last descending), as SQLite does. */
  nullsLow(desc: boolean): string;

  // ---- dates
  /** A timestamp as local 'YYYY-MM-DD HH:MM:SS' text in `zone` (SQLite: the process zone). */
  localDateTime(b: Binder, expr: string, zone: string): string;
  /** The local day, ISO week start (Monday), month or year of a timestamp as text. */
  dateBucket(b: Binder, expr: string, unit: DateBucket, zone: string): string;

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
   * The same questions over a (kind, value) pair selected earlier as columns (`JsonPathExprs.kind`
   * and `.value`), e.g. in an outer query over grouped keys.
   */
  readonly jsonPair: {
    /** True when the kind names a JSON number / string. */
    isNumber(kind: string): string;
    isString(kind: string): string;
    /** The value as a number where the kind is a number (NULL otherwise). */
    num(kind: string, value: string): string;
    /** Sort rank: absent or null 0, numbers 1, strings 2, false 3, true 4, objects and arrays 5. */
    rank(kind: string, value: string): string;
    /** The JavaScript value of a (kind, value) pair read back from a row; null when absent. */
    read(kind: unknown, value: unknown): unknown;
  };

  // ---- full text (FTS5 table `<table>_fts` on SQLite, column `search_vector` on PostgreSQL)
  readonly fullText: {
    /** True when the row `alias` of `table` matches every word of the terms. */
    matches(b: Binder, table: string, alias: string, terms: FullTextTerms): string;
    /**
     * Relevance of the row `alias` for the terms, lower is better. `join` (when not null) must
     * join the statement; `inner` asks for an inner join that also stands for the match.
     * `top`: the match is the statement's only filter and RANK its only sort key, so only the
     * first `top` rows by relevance can appear (ties among them in any order).
     * PostgreSQL reads a one-word term's scores from `<table>_fts_postings` (migration 012).
     * `profiles` (with `top`): the term's posting profiles best first, from `rankProfiles`.
     */
    rank(b: Binder, table: string, alias: string, terms: FullTextTerms, inner: boolean, top?: number, profiles?: readonly number[]): { join: string | null; score: string };
    /**
     * SQLite (migration 014): the statement listing a one-word term's distinct posting profiles
     * (`profile`) and the FTS5 totals record (`block`), run before the page when RANK could use
     * `top`; null when the term or engine has no such path.
     */
    rankProfiles(b: Binder, table: string, terms: FullTextTerms): string | null;
    /**
     * SQLite: the statement reading the term that follows a one-word term in `<table>_fts_postings`
     * (`next`): a word-prefix query matches that word alone when `next` does not start with it.
     */
    nextTerm(b: Binder, table: string, terms: FullTextTerms): string | null;
    /**
     * FROM, WHERE and ORDER BY of a search of `table` (as `alias`), best first; `prefix` matches
     * word starts. `top` (SQLite, one word matching itself alone, no other filter): the term's
     * profile groups from `profileGroups` (sqlite-bm25.ts), so only the first `limit` rows are read, in the order
     * ranking every match gives (bm25, then rowid).
     */
    search(
      b: Binder,
      table: string,
      alias: string,
      terms: FullTextTerms,
      prefix: boolean,
      top?: { groups: readonly (readonly number[])[]; limit: number },
    ): { from: string; where: string; order: string };
  };

  // ---- plans (same rows either way; the shape each planner answers best)
  /** Tail of a correlated EXISTS probe (`… LIMIT 1`) that keeps it a per-row index probe. */
  readonly existsProbeLimit: string;
  /** `expr IN (set)` for a set that is a large share of its table (walk) or small (collect). */
  memberOf(expr: string, set: string, large: boolean): string;
  /**
   * A join of `table` as `alias` (columns `cols`) on `on` that is answered by one index probe per
   * outer row — the recursive step of a walk over the group tree, whose work table is a few
   * rows while the planner guesses dozens.
   */
  probeJoin(table: string, alias: string, cols: string, on: string): string;
  /**
   * Joins to each row of a walk's `st` the first rows of `table` (as `e`, columns `cols`) that
   * match `on` (correlated with `st`) in the order `order`: `limit` rows (a bound value), `kth`
   * being `limit - 1`. The top rows of one subtree group through the owner index, group by
   * group, instead of sorting the whole subtree's rows.
   */
  groupTopRows(q: { table: string; cols: string; on: string; order: string[]; limit: string; kth: string }): string;
  /**
   * Membership of a list page's rows in a group-limited principal's subtree (companion
   * §10.10), shaped for what the list knows: whether the subtree is a large share of the
   * groups, and whether other filters narrow the rows (then a walk in list order may read the
   * whole table before a page fills).
   */
  subtreeMember(expr: string, set: string, plan: { large: boolean; narrowed: boolean }): string;
  readonly planner: {
    /** Resolve compared tag names to literal ids first, so the planner sees the tag's statistics. */
    tagIdsAsLiterals: boolean;
    /** Fetch a small subtree's rows group by group through a LATERAL join on the owner index. */
    lateralSmallSubtree: boolean;
    /**
     * List an indexed column's distinct values with one index probe per value (a recursive
     * MIN walk), where DISTINCT would read every index entry (the engine has no skip scan).
     */
    skipScanDistinct: boolean;
    /**
     * An unscoped page filtered by a number or date range sorts its ids alone and then reads
     * only the page's rows (the engine would read every matching row whole to sort it).
     */
    keysFirst: boolean;
  };

  // ---- execution
  /** Statement that (with `reusePlan`, also asking for the generic plan of a kept statement) bounds the following statements of a transaction (explicit, or the implicit one of statements sent under one Sync) to `ms`, or null. */
  statementTimeout(ms: number, reusePlan?: boolean): string | null;
  /** Whether a driver error is the statement timeout firing. */
  isTimeout(error: unknown): boolean;
  /** The engine's query plan of a statement, as rows, and how the plans of several read. */
  readonly explain: {
    statement(sql: string): string;
    plan(results: SqlRow[][]): { format: string; plan: unknown };
  };

  // ---- patterns, time, typed values, the engine as reported
  /**
   * Case-sensitive match of the whole of `expr` against a glob: `*` any run, `?` one
   * character, `[…]` a character class (SQLite's GLOB; PostgreSQL gets the same as a regex).
   */
  matchesGlob(b: Binder, expr: string, glob: string): string;
  /** True when timestamp `later` is more than `seconds` after timestamp `earlier`. */
  laterBy(later: string, earlier: string, seconds: number): string;
  /** A signed 64-bit integer as a bind value of a bigint column. */
  int64(value: bigint): unknown;
  /** The engine's name as statistics report it. */
  readonly label: 'SQLITE' | 'POSTGRES';
  /** The database is one local file (with its WAL) that this process opens over one connection. */
  readonly singleFile: boolean;

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

/**
 * A term that is one ASCII word and nothing else: PostgreSQL's parser reads it as one token and
 * FTS5's unicode61 tokenizer as one term (the word in lower case), so its postings apply.
 */
export const oneAsciiWord = (terms: FullTextTerms) => /^[A-Za-z0-9]+$/.test(terms.term.trim());
