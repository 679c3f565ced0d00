// PostgreSQL's spelling of the dialect seam (jsonb operators, ILIKE, `$n` placeholders).
import type { CreateTableBuilder } from 'kysely';
import { oneAsciiWord, SAFE_SEGMENT, type Binder, type Dialect, type JsonPathExprs } from './types.js';

const BUCKET_FORMAT = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' } as const;

/** A timestamp as local time in `zone` (a bound zone name). */
const local = (b: Binder, expr: string, zone: string) => `(${expr} AT TIME ZONE CAST(${b.p(zone)} AS text))`;

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
  byteOrder: (expr) => `${expr} COLLATE "C"`,
  unifyText: (expr) => `CAST(${expr} AS text)`,
  regex: { match: (b, expr, pattern, negated) => `${expr} ${negated ? '!~*' : '~*'} CAST(${b.p(pattern)} AS text)` },

  nullsLow: (desc) => (desc ? ' NULLS LAST' : ' NULLS FIRST'),

  localDateTime: (b, expr, zone) => `to_char(${local(b, expr, zone)}, 'YYYY-MM-DD HH24:MI:SS')`,
  dateBucket: (b, expr, unit, zone) =>
    unit === 'week' ? `to_char(date_trunc('week', ${local(b, expr, zone)}), 'YYYY-MM-DD')` : `to_char(${local(b, expr, zone)}, '${BUCKET_FORMAT[unit]}')`,

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
      // Only a JSON string has '' as its text.
      isEmptyString: `${text} = ''`,
    };
  },
  jsonLiteral: (b, value) => `CAST(${b.p(JSON.stringify(value))} AS jsonb)`,
  jsonTypeIs: (exprs, type) => `${exprs.rawType} = '${type}'`,
  jsonPair: {
    isNumber: (kind) => `${kind} = 'number'`,
    isString: (kind) => `${kind} = 'string'`,
    num: (kind, value) => `(CASE WHEN ${kind} = 'number' THEN CAST(${value} AS numeric) END)`,
    rank: (kind, value) =>
      `(CASE WHEN ${kind} IS NULL THEN 0 WHEN ${kind} = 'number' THEN 1 WHEN ${kind} = 'string' THEN 2 WHEN ${kind} = 'boolean' AND ${value} = 'false' THEN 3 WHEN ${kind} = 'boolean' THEN 4 ELSE 5 END)`,
    read(kind, value) {
      if (kind === null || kind === undefined) return null;
      if (kind === 'number') return Number(value);
      if (kind === 'boolean') return value === 'true';
      // Objects and arrays arrive as jsonb text; one spelling whatever the stored spacing.
      if (kind === 'object' || kind === 'array') return JSON.stringify(JSON.parse(String(value)));
      return value;
    },
  },

  fullText: {
    matches: (b, _table, alias, terms) => `${alias}.search_vector @@ plainto_tsquery('english', CAST(${b.p(terms.term)} AS text))`,
    rank(b, table, alias, terms, inner) {
      if (oneAsciiWord(terms)) {
        // Its ts_rank per row is stored in `<table>_fts_postings` (migration 012) as the sort key,
        // so RANK reads the best rows in index order instead of ranking every match.
        // The word's lexeme, as plainto_tsquery finds it (NULL for a stop word: nothing matches).
        const lexeme = `(SELECT u.lexeme FROM unnest(to_tsvector('english', CAST(${b.p(terms.term)} AS text))) u)`;
        const postings = `${table}_fts_postings f ON f.id = ${alias}.id AND f.lexeme = ${lexeme}`;
        return { join: `${inner ? 'JOIN' : 'LEFT JOIN'} ${postings}`, score: inner ? 'f.score' : 'COALESCE(f.score, 1e9)' };
      }
      const q = () => `plainto_tsquery('english', CAST(${b.p(terms.term)} AS text))`;
      return { join: null, score: `(CASE WHEN ${alias}.search_vector @@ ${q()} THEN -ts_rank(${alias}.search_vector, ${q()}) ELSE 1e9 END)` };
    },
    // The postings' scores are the sort key itself: nothing to look up first.
    rankProfiles: () => null,
    nextTerm: () => null,
    search(b, table, alias, terms, prefix) {
      if (!prefix) {
        const q = () => `plainto_tsquery('english', CAST(${b.p(terms.term)} AS text))`;
        return { from: `${table} ${alias}`, where: `${alias}.search_vector @@ ${q()}`, order: `ts_rank(${alias}.search_vector, ${q()}) DESC` };
      }
      // English lexemes as prefixes ("lighthouse" → lighthous:*), or the plain words (stems like
      // "many" → "mani" would miss "many00"; stop words have no lexeme at all).
      const prefixes = (config: string) =>
        `(SELECT to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & ')) FROM unnest(to_tsvector('${config}', CAST(${b.p(terms.words.join(' '))} AS text))))`;
      const tsq = `(SELECT COALESCE(${prefixes('english')} || ${prefixes('simple')}, ${prefixes('simple')}))`;
      return { from: `${table} ${alias}, ${tsq} AS q(tsq)`, where: `${alias}.search_vector @@ q.tsq`, order: `ts_rank(${alias}.search_vector, q.tsq) DESC` };
    },
  },

  // PostgreSQL strips LIMIT 1 from EXISTS and hashes the whole table; OFFSET 0 keeps the probe.
  existsProbeLimit: ' LIMIT 1 OFFSET 0',
  // Small sets: an array lets the planner use the index on `expr` instead of a semi-join walk.
  // Large sets: a hashed subplan, tested row by row while the ORDER BY index is walked. A plain
  // IN becomes a semi-join whose inner side, the recursive CTE (estimated at ~60 rows), is
  // rescanned for every row walked: 1,001 groups × 550 rows took 290 ms at 1M rows. `IS TRUE`
  // keeps the sublink out of the join tree (same rows: an unknown result is not true either).
  memberOf: (expr, set, large) => (large ? `(${expr} IN (${set})) IS TRUE` : `${expr} = ANY (ARRAY(${set}))`),
  // A plain join in a recursive step becomes a hash join over a sequential scan of the whole
  // table on every iteration (the work table is estimated at ~60 rows): 32 steps over 2,000
  // groups took 35–99 ms for 20 chains. OFFSET 0 keeps the LATERAL subquery from being flattened
  // into that join, so each work-table row is one index probe (1 ms).
  probeJoin: (table, alias, cols, on) => `CROSS JOIN LATERAL (SELECT ${cols} FROM ${table} ${alias} WHERE ${on} OFFSET 0) ${alias}`,
  groupTopRows: ({ table, cols, on, order, limit }) => `CROSS JOIN LATERAL (SELECT ${cols} FROM ${table} e WHERE ${on} ORDER BY ${order.join(', ')} LIMIT ${limit}) e`,
  // Large: an array the planner sizes, so it walks the list order or uses the owner index by
  // cost (filters included); small: the semi-join it plans for a few groups.
  subtreeMember: (expr, set, plan) => (plan.large ? `${expr} = ANY (ARRAY(${set}))` : `${expr} IN (${set})`),
  planner: { tagIdsAsLiterals: true, lateralSmallSubtree: true, skipScanDistinct: true, keysFirst: false },

  // set_config(…, true) is SET LOCAL as a query: it also holds for an implicit transaction (one
  // statement sent with it under one Sync), where SET LOCAL warns.
  // reusePlan: a kept statement's generic plan is made once and reused; left to itself (auto) the
  // server re-plans the nested [mrql] batch on every render, which cost more than running it.
  statementTimeout: (ms, reusePlan) =>
    `SELECT set_config('statement_timeout', '${Math.max(1, Math.floor(ms))}', true)` +
    (reusePlan ? `, set_config('plan_cache_mode', 'force_generic_plan', true)` : ''),
  isTimeout: (error) => (error as { code?: unknown } | null)?.code === '57014',
  explain: {
    statement: (sql) => `EXPLAIN (FORMAT JSON) ${sql}`,
    plan(results) {
      const plans = results.map((rows) => {
        const v = Object.values(rows[0] ?? {})[0];
        return typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
      });
      return { format: 'json', plan: plans.length === 1 ? plans[0] : plans };
    },
  },

  matchesGlob: (b, expr, glob) => `${expr} ~ ${b.p(globToRegex(glob))}`,
  laterBy: (later, earlier, seconds) => `${later} > ${earlier} + interval '${Number(seconds)} seconds'`,
  // pg binds bigint parameters as text, which keeps all 64 bits.
  int64: (value) => BigInt.asIntN(64, value).toString(),
  label: 'POSTGRES',
  singleFile: false,
  jsonObjectKeys: (exprs, alias) => ({ from: `jsonb_object_keys(CASE WHEN ${exprs.rawType} = 'object' THEN ${exprs.node} ELSE '{}'::jsonb END) ${alias}`, key: alias }),

  columnCatalog: `SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
};

/** A glob (`*`, `?`, `[…]`) as an anchored POSIX regex with the same meaning. */
export function globToRegex(glob: string): string {
  let out = '^';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        out += `[${body.startsWith('^') || body.startsWith('!') ? '^' + body.slice(1) : body}]`;
        i = end;
      }
    } else out += /[\\^$.|+(){}]/.test(c) ? `\\${c}` : c;
  }
  return out + '$';
}
