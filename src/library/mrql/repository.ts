// MRQL's data access: the statements the compiler built (statements.ts) run here, and the saved
// queries' own rows live here.
import { CompiledQuery, sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { inAmbientTransaction } from '../../core/db/ambient.js';
import { pgPoolOf } from '../../core/db/connect.js';
import { prefixedRows } from '../../core/db/pg-prefixed.js';
import type { SqlRow } from '../../core/db/dialect/index.js';
import { Repository } from '../../core/db/repository.js';
import type { Statement } from '../../core/db/sql-text.js';
import type { Database, SavedMrqlQueryTable } from '../schema/database.js';

export type SavedRow = Selectable<SavedMrqlQueryTable>;

export class MrqlRepository extends Repository<Database> {
  /**
   * Runs one compiled statement, bounded by the statement timeout where the engine has one.
   * PostgreSQL: the timeout is set for the statement's own implicit transaction, sent with it in
   * one round trip (`prefixedRows`; BEGIN, SET LOCAL, the statement and COMMIT took three, more
   * than most MRQL statements take to run). Inside a transaction, the timeout is set in it.
   * A `reusePlan` statement is kept on the connection with its generic plan (`prefixedRows`).
   */
  async rows(st: Statement, timeoutMs: number): Promise<SqlRow[]> {
    const query = CompiledQuery.raw(st.sql, st.params);
    const bound = this.dialect.statementTimeout(timeoutMs, st.reusePlan);
    if (bound === null) return (await this.db.executeQuery<SqlRow>(query)).rows;
    const pool = this.db.isTransaction || inAmbientTransaction() ? undefined : pgPoolOf(this.db);
    if (pool) return prefixedRows(pool, bound, st.sql, st.params, st.reusePlan);
    return this.db.transaction().execute(async (tx) => {
      await tx.executeQuery(CompiledQuery.raw(bound));
      return (await tx.executeQuery<SqlRow>(query)).rows;
    });
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
