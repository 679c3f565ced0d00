// SQLite's spelling of the dialect seam (JSON1 functions, lower() folding, `?` placeholders).
import type { CreateTableBuilder } from 'kysely';
import { MAX_PROFILES } from './sqlite-bm25.js';
import { oneAsciiWord, SAFE_SEGMENT, type Binder, type Dialect, type FullTextTerms, type JsonPathExprs, type JsonType } from './types.js';

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

/** The FTS5 MATCH text: every word quoted, so no word acts as an operator. */
function ftsQuery(terms: FullTextTerms, prefix: boolean): string {
  return terms.words.map((w) => `"${w}"${prefix ? '*' : ''}`).join(' ');
}

/**
 * The first `limit` postings (`fid`, and `score`: the branch's place) of a one-word term read
 * branch by branch, one branch a group of profiles, best group first, each group's rows by id.
 * SQLite runs UNION ALL branches in order, so the outer LIMIT stops after the first `limit` rows.
 */
function postingsTop(b: Binder, table: string, terms: FullTextTerms, groups: readonly (readonly number[])[], limit: number): string {
  const term = b.p(terms.term.trim().toLowerCase());
  const branches = groups.map(
    (g, i) =>
      `SELECT * FROM (SELECT id AS fid, ${i} AS score FROM ${table}_fts_postings WHERE term = ${term} AND profile IN (${g.map((p) => b.p(p)).join(', ')}) ORDER BY id LIMIT ${b.p(limit)})`,
  );
  return branches.length ? `SELECT * FROM (${branches.join(' UNION ALL ')}) LIMIT ${b.p(limit)}` : 'SELECT 0 AS fid, 0 AS score WHERE 1 = 0';
}

const BUCKET_FORMAT = { day: '%Y-%m-%d', month: '%Y-%m', year: '%Y' } as const;

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
  // Text compares byte-wise unless a collation says otherwise.
  byteOrder: (expr) => expr,
  unifyText: (expr) => expr,
  regex: null,

  // NULLs are the lowest values already.
  nullsLow: () => '',

  // 'localtime' is the process zone, which is the server zone.
  localDateTime: (_b, expr) => `strftime('%Y-%m-%d %H:%M:%S', ${expr}, 'localtime')`,
  dateBucket: (_b, expr, unit) =>
    unit === 'week' ? `date(${expr}, 'localtime', '-6 days', 'weekday 1')` : `strftime('${BUCKET_FORMAT[unit]}', ${expr}, 'localtime')`,

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
      isEmptyString: `(${type} = 'text' AND ${value} = '')`,
    };
  },
  // json_extract hands back SQL values: JSON true/false compare as 1/0.
  jsonLiteral: (b, value) => b.p(typeof value === 'boolean' ? (value ? 1 : 0) : value),
  jsonTypeIs: (exprs, type) => `${exprs.rawType} IN (${TYPE_NAMES[type].map((t) => `'${t}'`).join(', ')})`,
  jsonPair: {
    isNumber: (kind) => `${kind} IN ('integer', 'real')`,
    isString: (kind) => `${kind} = 'text'`,
    // json_extract already hands numbers back as numbers.
    num: (_kind, value) => value,
    rank: (kind) =>
      `(CASE WHEN ${kind} IS NULL THEN 0 WHEN ${kind} IN ('integer', 'real') THEN 1 WHEN ${kind} = 'text' THEN 2 WHEN ${kind} = 'false' THEN 3 WHEN ${kind} = 'true' THEN 4 ELSE 5 END)`,
    read(kind, value) {
      if (kind === null || kind === undefined) return null;
      if (kind === 'integer' || kind === 'real') return Number(value);
      if (kind === 'true') return true;
      if (kind === 'false') return false;
      return value;
    },
  },

  fullText: {
    matches: (b, table, alias, terms) => `${alias}.id IN (SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ${b.p(ftsQuery(terms, false))})`,
    rank(b, table, alias, terms, inner, top, profiles) {
      if (inner && top !== undefined && profiles) {
        // Rows profile by profile, best profile first (rows of one profile tie).
        const rows = postingsTop(b, table, terms, profiles.map((p) => [p]), top);
        return { join: `JOIN (${rows}) f ON f.fid = ${alias}.id`, score: 'f.score' };
      }
      const match = `FROM ${table}_fts WHERE ${table}_fts MATCH ${b.p(ftsQuery(terms, false))}`;
      // FTS5's rank is bm25(): ORDER BY rank LIMIT keeps only the best rows inside the FTS
      // query, so only those are joined to the table (mrql.md §22.5).
      const scored =
        inner && top !== undefined
          ? `(SELECT rowid AS fid, rank AS score ${match} ORDER BY rank LIMIT ${b.p(top)}) f`
          : `(SELECT rowid AS fid, bm25(${table}_fts) AS score ${match}) f`;
      return { join: `${inner ? 'JOIN' : 'LEFT JOIN'} ${scored} ON f.fid = ${alias}.id`, score: inner ? 'f.score' : 'COALESCE(f.score, 1e9)' };
    },
    rankProfiles(b, table, terms) {
      if (!oneAsciiWord(terms)) return null;
      const term = () => b.p(terms.term.trim().toLowerCase());
      // One index probe per distinct profile of the term (a few), then FTS5's totals record.
      const walk =
        `WITH RECURSIVE w(profile) AS (SELECT min(profile) FROM ${table}_fts_postings WHERE term = ${term()} ` +
        `UNION ALL SELECT (SELECT min(profile) FROM ${table}_fts_postings WHERE term = ${term()} AND profile > w.profile) FROM w WHERE w.profile IS NOT NULL ` +
        `LIMIT ${MAX_PROFILES + 2}) `;
      return `${walk}SELECT profile, NULL AS block FROM w WHERE profile IS NOT NULL UNION ALL SELECT NULL, block FROM ${table}_fts_data WHERE id = 1`;
    },
    nextTerm: (b, table, terms) => (oneAsciiWord(terms) ? `SELECT min(term) AS next FROM ${table}_fts_postings WHERE term > ${b.p(terms.term.trim().toLowerCase())}` : null),
    search(b, table, alias, terms, prefix, top) {
      if (top) {
        // Group by group, each group's rows by id — the order FTS5 gives them, as ORDER BY rank
        // sorts the rowid-ordered matches stably.
        const rows = postingsTop(b, table, terms, top.groups, top.limit);
        return { from: `(${rows}) f JOIN ${table} ${alias} ON ${alias}.id = f.fid`, where: '1 = 1', order: 'f.score, f.fid' };
      }
      return {
        from: `${table}_fts f JOIN ${table} ${alias} ON ${alias}.id = f.rowid`,
        where: `${table}_fts MATCH ${b.p(ftsQuery(terms, prefix))}`,
        order: 'f.rank',
      };
    },
  },

  // LIMIT 1 keeps SQLite from turning EXISTS into a join with a Bloom filter over the whole table.
  existsProbeLimit: ' LIMIT 1',
  // A unary + keeps the planner off the index on `expr`, so it walks the ORDER BY index instead.
  memberOf: (expr, set, large) => `${large ? '+' : ''}${expr} IN (${set})`,
  // SQLite probes the index for a join on an indexed column already.
  probeJoin: (table, alias, _cols, on) => `JOIN ${table} ${alias} ON ${on}`,
  groupTopRows: ({ table, on, order, limit, kth }) => {
    // No LATERAL. In id order the group's k-th id bounds a range scan of the owner index (no
    // row is read); in any other order the group's top ids are a correlated IN list, re-run
    // for each walk row and read by rowid. CROSS JOIN keeps the walk the outer loop.
    const byId = order.length === 1 && /^e\.id( DESC)?$/.test(order[0]);
    if (byId) {
      const desc = order[0].endsWith(' DESC');
      const kthId = `(SELECT e.id FROM ${table} e WHERE ${on} ORDER BY ${order[0]} LIMIT 1 OFFSET ${kth})`;
      return `CROSS JOIN ${table} e ON ${on} AND e.id ${desc ? '>=' : '<='} COALESCE(${kthId}, ${desc ? '-9223372036854775808' : '9223372036854775807'})`;
    }
    return `CROSS JOIN ${table} e ON e.id IN (SELECT e.id FROM ${table} e WHERE ${on} ORDER BY ${order.join(', ')} LIMIT ${limit})`;
  },
  // Large and unfiltered: walk the list order (the unary + hides the owner index); otherwise
  // collect the subtree's rows through the owner index and sort them.
  subtreeMember: (expr, set, plan) => `${plan.large && !plan.narrowed ? '+' : ''}${expr} IN (${set})`,
  planner: { tagIdsAsLiterals: false, lateralSmallSubtree: false, skipScanDistinct: false, keysFirst: true },

  statementTimeout: () => null,
  isTimeout: () => false,
  explain: {
    statement: (sql) => `EXPLAIN QUERY PLAN ${sql}`,
    plan: (results) => ({ format: 'query-plan', plan: results.flat() }),
  },

  matchesGlob: (b, expr, glob) => `${expr} GLOB ${b.p(glob)}`,
  // Timestamps are ISO text here; julianday compares them as instants.
  laterBy: (later, earlier, seconds) => `julianday(${later}) > julianday(${earlier}) + ${Number(seconds)}.0 / 86400`,
  int64: (value) => BigInt.asIntN(64, value),
  label: 'SQLITE',
  singleFile: true,
  jsonObjectKeys: (exprs, alias) => ({ from: `json_each(CASE WHEN ${exprs.rawType} = 'object' THEN ${exprs.node} END) ${alias}`, key: `${alias}.key` }),

  columnCatalog: `SELECT m.name AS table_name, p.name AS column_name
    FROM sqlite_master m JOIN pragma_table_info(m.name) p
    WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid`,
};
