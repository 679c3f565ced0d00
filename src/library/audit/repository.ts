// Audit-log rows: insert and the filtered, paged list.
import { sql, type Insertable, type Selectable } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import { Repository } from '../../core/db/repository.js';
import type { Database, LogEntryTable } from '../schema/database.js';
import { applyDateBounds, applySort, sortTerms } from '../common/list.repository.js';

export type LogRow = Selectable<LogEntryTable>;

export interface LogFilter {
  Level?: string;
  Action?: string;
  EntityType?: string;
  EntityID?: number;
  Message?: string;
  RequestPath?: string;
  CreatedBefore?: string;
  CreatedAfter?: string;
  SortBy?: string[];
}

const SORTABLE = ['id', 'created_at', 'level', 'action', 'entity_type', 'entity_id', 'entity_name', 'message', 'request_path'];

export class LogRepository extends Repository<Database> {
  async insert(row: Insertable<LogEntryTable>): Promise<void> {
    await this.db.insertInto('log_entries').values(row).execute();
  }

  async get(id: number): Promise<LogRow | undefined> {
    return this.db.selectFrom('log_entries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private filtered(f: LogFilter) {
    let q = this.db.selectFrom('log_entries');
    if (f.Level) q = q.where('level', '=', f.Level);
    if (f.Action) q = q.where('action', '=', f.Action);
    if (f.EntityType) q = q.where('entity_type', '=', f.EntityType);
    if (f.EntityID !== undefined) q = q.where('entity_id', '=', f.EntityID);
    if (f.Message) q = q.where(containsText(this.dialect, 'log_entries.message', f.Message));
    if (f.RequestPath) q = q.where(containsText(this.dialect, 'log_entries.request_path', f.RequestPath));
    return applyDateBounds(q, 'log_entries', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
  }

  async list(f: LogFilter, limit: number, offset: number): Promise<{ rows: LogRow[]; total: number }> {
    const terms = sortTerms(this.dialect, 'log_entries', f.SortBy, { columns: SORTABLE, meta: false });
    const rows = await applySort(this.filtered(f).selectAll(), terms).limit(limit).offset(offset).execute();
    const { total } = await this.filtered(f).select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow();
    return { rows, total: Number(total) };
  }

  async deleteOlderThan(iso: string): Promise<number> {
    const r = await this.db.deleteFrom('log_entries').where('created_at', '<', iso).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
