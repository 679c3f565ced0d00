// Download history and runtime settings (companion §2.4, §1.9, §7.3).
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

export function jobsMigration(d: Dialect): Migration {
  const { timestamp: ts, json } = d.columnType;
  return {
    async up(db: Kysely<unknown>) {
      await d.withId(db.schema.createTable('download_history_entries'))
        .addColumn('job_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
        .addColumn('name', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('resource_id', 'integer')
        .addColumn('total_size', 'bigint', (c) => c.notNull().defaultTo(-1))
        .addColumn('progress', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('started_at', ts)
        .addColumn('completed_at', ts)
        .addColumn('created_by_user_id', 'integer')
        .addColumn('payload', json)
        .addColumn('last_retry_job_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_retry_at', ts)
        .execute();
      for (const col of ['status', 'resource_id', 'created_at', 'completed_at', 'created_by_user_id']) {
        await db.schema.createIndex(`idx_download_history_entries_${col}`).on('download_history_entries').column(col).execute();
      }
      await db.schema
        .createTable('runtime_settings')
        .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('value_json', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
    },
  };
}
