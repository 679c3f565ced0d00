// MRQL as a list filter (mrql.md §18): the expression becomes a WHERE predicate composed
// directly into the list statement, with its values bound. Used by the resource, note and group
// lists, their timelines, and the mass-edit `Filter` strings.
import type { RawBuilder, SqlBool } from 'kysely';
import { SqlText } from '../../core/db/sql-text.js';
import type { Library } from '../context.js';
import type { Expr } from './ast.js';
import { MrqlError } from './errors.js';
import type { Entity } from './fields.js';
import { parseFilter } from './parser.js';
import { hasRegex, translateExpr, type Env } from './translate.js';
import { validateFilter } from './validate.js';
import { SERVER_ZONE } from './values.js';

/** Settings the list filter shares with the MRQL engine (full-text availability, thresholds). */
export function filterEnv(lib: Library): Env {
  const threshold = (key: string) => Number(lib.settings.get(key));
  return {
    dialect: lib.dialect,
    zone: SERVER_ZONE,
    now: new Date(),
    fts: lib.config.fts,
    similarityThreshold: threshold('hash_similarity_threshold'),
    ahashThreshold: threshold('hash_ahash_threshold'),
  };
}

/**
 * The WHERE predicate of an MRQL filter expression over the list's table, referenced as
 * `alias` (e.g. `"groups"`, `resources`). Blank or absent text means no filter (null). An
 * invalid expression is an MrqlError answering 400 with the bare message and its position in
 * the value.
 */
export function mrqlListFilter(lib: Library, entity: Entity, text: string | undefined, alias: string): RawBuilder<SqlBool> | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    return predicate(lib, entity, text, alias);
  } catch (e) {
    throw e instanceof MrqlError ? e.reportedAs({ bare: true }) : e;
  }
}

function predicate(lib: Library, entity: Entity, text: string, alias: string): RawBuilder<SqlBool> {
  const where: Expr = parseFilter(text);
  validateFilter(where, entity);
  if (!lib.dialect.regex && hasRegex(where)) throw new MrqlError('translate', 'regex match (~*) requires PostgreSQL', 0, 0);
  const b = new SqlText(lib.dialect);
  return b.raw<SqlBool>(translateExpr({ b, env: filterEnv(lib), entity }, where, alias));
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
