// MRQL as a list filter (mrql.md §18): the expression becomes a WHERE predicate composed
// directly into the list statement, with its values bound. Used by the resource, note and group
// lists, their timelines, and the mass-edit `Filter` strings.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { HttpError } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import { MrqlError } from './errors.js';
import type { Entity } from './fields.js';
import { parseFilter } from './parser.js';
import { Binds } from './sql.js';
import { translateExpr, type Env } from './translate.js';
import { validateFilter } from './validate.js';

// eslint-disable-next-line no-control-regex -- the value markers of sql.ts
const MARK = /\u0001(\d+)\u0002/;

/** Settings the list filter shares with the MRQL engine (full-text availability, thresholds). */
export function filterEnv(lib: Library): Env {
  const threshold = (key: string) => Number(lib.settings.get(key));
  return { kind: lib.dialect.kind, now: new Date(), fts: lib.config.fts, similarityThreshold: threshold('hash_similarity_threshold'), ahashThreshold: threshold('hash_ahash_threshold') };
}

/** Turns marker-bearing SQL text into a Kysely fragment with bound values. */
function toRaw(text: string, b: Binds): RawBuilder<SqlBool> {
  const pieces = text.split(MARK);
  const parts: RawBuilder<unknown>[] = [];
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece) parts.push(sql.raw(piece));
    } else parts.push(sql`${b.values[Number(piece)]}`);
  });
  return sql<SqlBool>`${sql.join(parts, sql.raw(''))}`;
}

/**
 * The WHERE predicate of an MRQL filter expression over the list's table, referenced as
 * `alias` (e.g. `"groups"`, `resources`). Blank or absent text means no filter (null). An
 * invalid expression is a 400 with the bare message and its position in the value.
 */
export function mrqlListFilter(lib: Library, entity: Entity, text: string | undefined, alias: string): RawBuilder<SqlBool> | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    const where = parseFilter(text);
    validateFilter(where, entity);
    const b = new Binds(lib.dialect.kind);
    const env = filterEnv(lib);
    if (lib.dialect.kind === 'sqlite' && hasRegexOp(text, where)) throw new MrqlError('translate', 'regex match (~*) requires PostgreSQL', 0, 0);
    return toRaw(translateExpr({ b, env, entity }, where, alias), b);
  } catch (e) {
    if (e instanceof MrqlError) throw new HttpError(400, e.bare, { position: e.position, length: e.length });
    throw e;
  }
}

function hasRegexOp(_text: string, where: import('./ast.js').Expr): boolean {
  const walk = (e: import('./ast.js').Expr): boolean => {
    if (e.k === 'and' || e.k === 'or') return walk(e.left) || walk(e.right);
    if (e.k === 'not') return walk(e.e);
    return e.k === 'pred' && (e.op === '~*' || e.op === '!~*');
  };
  return walk(where);
}

/** The first `MRQL`/`mrql` value of a mass-edit `Filter` string (§18.3), or undefined. */
export function mrqlFromFilterString(filter: string): string | undefined {
  const params = new URLSearchParams(filter.replace(/^\?/, ''));
  for (const [k, v] of params) if (k.toLowerCase() === 'mrql') return v;
  return undefined;
}

/** The MRQL predicate of a mass-edit `Filter` string, validated before anything else runs. */
export function mrqlFilterFromFilterString(lib: Library, entity: Entity, filter: string, alias: string): RawBuilder<SqlBool> | null {
  return mrqlListFilter(lib, entity, mrqlFromFilterString(filter), alias);
}
