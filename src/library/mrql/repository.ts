// MRQL's data access: the statements the compiler built (statements.ts) run here, and the saved
// queries' own rows live here.
import { CompiledQuery, sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { inAmbientTransaction } from '../../core/db/ambient.js';
import type { SqlRow } from '../../core/db/dialect/index.js';
import { Repository } from '../../core/db/repository.js';
import type { Statement } from '../../core/db/sql-text.js';
import type { Database, SavedMrqlQueryTable } from '../schema/database.js';

/**
 * One statement in its own transaction bounded by `bound`, in three round trips instead of
 * Kysely's four (BEGIN, SET LOCAL, statement, COMMIT: each a round trip, together more than
 * most MRQL statements take to run). BEGIN and SET LOCAL go as one simple-protocol message (no parameters).
 * COMMIT is awaited before the connection goes back to the pool: sending the next user's query
 * while it is in flight relies on pg queueing queries on a busy client, which pg 8 deprecates
 * (with a warning) and pg 9 removes.
 */
async function bounded(conn: Kysely<Database>, bound: string, query: CompiledQuery): Promise<SqlRow[]> {
  await conn.executeQuery(CompiledQuery.raw(`BEGIN; ${bound}`));
  let rows: SqlRow[];
  try {
    rows = (await conn.executeQuery<SqlRow>(query)).rows;
  } catch (e) {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => undefined);
    throw e;
  }
  await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  return rows;
}

export type SavedRow = Selectable<SavedMrqlQueryTable>;

export class MrqlRepository extends Repository<Database> {
  /** Runs one compiled statement, bounded by the statement timeout where the engine has one. */
  async rows(st: Statement, timeoutMs: number): Promise<SqlRow[]> {
    const query = CompiledQuery.raw(st.sql, st.params);
    const bound = this.dialect.statementTimeout(timeoutMs);
    if (bound === null) return (await this.db.executeQuery<SqlRow>(query)).rows;
    if (this.db.isTransaction || inAmbientTransaction()) {
      return this.db.transaction().execute(async (tx) => {
        await tx.executeQuery(CompiledQuery.raw(bound));
        return (await tx.executeQuery<SqlRow>(query)).rows;
      });
    }
    return (this.db as Kysely<Database>).connection().execute((conn) => bounded(conn, bound, query));
  }

  /** The engine's plan rows of each statement (explain with nativePlan). */
  async plans(statements: Statement[]): Promise<SqlRow[][]> {
    const out: SqlRow[][] = [];
    for (const st of statements) out.push((await this.db.executeQuery<SqlRow>(CompiledQuery.raw(this.dialect.explain.statement(st.sql), st.params))).rows);
    return out;
  }
}

export class SavedMrqlRepository extends Repository<Database> {
  async find(id: number): Promise<SavedRow | undefined> {
    return this.db.selectFrom('saved_mrql_queries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByName(name: string): Promise<SavedRow | undefined> {
    return this.db.selectFrom('saved_mrql_queries').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Ordered by name (any case), then id; a page when `page` is given. */
  async list(page: { limit: number; offset: number } | null): Promise<SavedRow[]> {
    let q = this.db.selectFrom('saved_mrql_queries').selectAll().orderBy(sql`lower(name)`).orderBy('id');
    if (page) q = q.limit(page.limit).offset(page.offset);
    return q.execute();
  }

  async insert(row: Insertable<SavedMrqlQueryTable>): Promise<SavedRow> {
    return this.db.insertInto('saved_mrql_queries').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, change: Updateable<SavedMrqlQueryTable>): Promise<SavedRow> {
    return this.db.updateTable('saved_mrql_queries').set(change).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('saved_mrql_queries').where('id', '=', id).execute();
  }
}
