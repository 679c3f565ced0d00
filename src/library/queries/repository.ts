// Saved SQL query rows, and the schema browser's catalog of tables and columns.
import { sql, type Insertable } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import type { QueryTable } from '../schema/database.js';
import { NamedRepository, type NamedQuery, type NamedRow } from '../common/named.repository.js';
import type { CommonListInput } from '../common/list.js';

export type QueryRow = NamedRow<'queries'>;
export type QueryListFilter = CommonListInput & { Text?: string };

export class QueryRepository extends NamedRepository<'queries', QueryListFilter> {
  protected readonly table = 'queries';
  protected readonly sort = { columns: ['id', 'name', 'text', 'description', 'created_at', 'updated_at'], meta: false };

  protected override filtered(input: QueryListFilter): NamedQuery {
    const q = super.filtered(input);
    return input.Text ? q.where(containsText(this.dialect, 'queries.text', input.Text)) : q;
  }

  async insert(row: Insertable<QueryTable>): Promise<QueryRow> {
    return (await this.db.insertInto('queries').values(row).returningAll().executeTakeFirstOrThrow()) as QueryRow;
  }

  /** Every table's and view's columns, in declared order. */
  async columns(): Promise<{ table_name: string; column_name: string }[]> {
    return (await sql<{ table_name: string; column_name: string }>`${sql.raw(this.dialect.columnCatalog)}`.execute(this.db)).rows;
  }
}
