// Statement timeouts (mrql.md §1, §11): the driver's timeout becomes a typed MrqlError (400,
// "timed out"); a cross-entity query keeps the other types' rows with a warning; any other
// failure stays an error, whatever its message says. The repository is a stand-in that fails
// on purpose: a real timeout cannot be produced on demand with a small fixture.
import { describe, expect, it } from 'vitest';
import { postgresDialect } from '../../../src/core/db/dialect/postgres.js';
import { sqliteDialect } from '../../../src/core/db/dialect/sqlite.js';
import type { Dialect } from '../../../src/core/db/dialect/index.js';
import type { Statement } from '../../../src/core/db/sql-text.js';
import { toHttpError } from '../../../src/core/http/server.js';
import { MrqlEngine } from '../../../src/library/mrql/engine.js';
import { MrqlError } from '../../../src/library/mrql/errors.js';
import type { MrqlRepository } from '../../../src/library/mrql/repository.js';
import type { FlatResult } from '../../../src/library/mrql/types.js';

const SETTINGS = { defaultLimit: 50, timeoutMs: 250, similarityThreshold: 10, ahashThreshold: 0, pageQueryBudget: 20 };
const pgTimeout = () => Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });

/** An engine whose repository fails `failing` statements (by label) with `error`, and answers one row otherwise. */
function engineFailing(dialect: Dialect, failing: string, error: () => Error): MrqlEngine {
  const repo = {
    async rows(st: Statement) {
      if (st.label === failing) throw error();
      return [{ id: 1, name: 'x', description: '', created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z', meta: '{}', owner_id: null }];
    },
    async plans() {
      return [];
    },
  } as unknown as MrqlRepository;
  return new MrqlEngine(repo, dialect, true, SETTINGS, () => new Date('2025-02-01T12:00:00Z'), 'UTC');
}

async function errorOf(work: () => Promise<unknown>): Promise<MrqlError> {
  try {
    await work();
  } catch (e) {
    if (e instanceof MrqlError) return e;
    throw e;
  }
  throw new Error('expected an MrqlError');
}

describe('statement timeouts', () => {
  it('a timed-out statement answers 400 with "timed out"', async () => {
    const e = await errorOf(() => engineFailing(postgresDialect, 'resource', pgTimeout).execute('type = resource'));
    expect(e.timedOut).toBe(true);
    const http = toHttpError(e);
    expect([http.status, http.message, http.extra]).toEqual([400, 'MRQL query timed out after 250 ms', {}]);
  });

  it('cross-entity: the timed-out type contributes no rows and a warning', async () => {
    const r = (await engineFailing(postgresDialect, 'notes', pgTimeout).execute('name ~ "x" ORDER BY name')) as FlatResult;
    expect(r.warnings).toEqual(['note query failed: MRQL query timed out after 250 ms']);
    expect(r.counts).toEqual({ resources: 1, notes: 0, groups: 1 });
  });

  it('another failure is an execution error even when its message mentions a timeout', async () => {
    const e = await errorOf(() => engineFailing(postgresDialect, 'notes', () => new Error('lock wait timed out')).execute('name ~ "x"'));
    expect([e.kind, e.timedOut, e.message]).toEqual(['execution', false, 'lock wait timed out']);
  });

  it('SQLite has no statement timeout: driver errors stay execution errors', async () => {
    const e = await errorOf(() => engineFailing(sqliteDialect, 'resource', pgTimeout).execute('type = resource'));
    expect([e.kind, e.timedOut]).toEqual(['execution', false]);
  });
});
