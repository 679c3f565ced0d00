// The plugin host's durable state (companion §2.6, library-plugins.md §28): one state row per
// discovered plugin, each plugin's key-value store, schedule rows and scheduled downloads.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

export function pluginsMigration(d: Dialect): Migration {
  const { timestamp: ts, bool } = d.columnType;
  const stamps = <T extends string>(t: import('kysely').CreateTableBuilder<T, 'id'>) =>
    t.addColumn('created_at', ts, (c) => c.notNull()).addColumn('updated_at', ts, (c) => c.notNull());
  const owner = (c: import('kysely').ColumnDefinitionBuilder) => c.references('users.id').onDelete('set null');

  return {
    async up(db: AnyDb) {
      await stamps(d.withId(db.schema.createTable('plugin_states')))
        .addColumn('plugin_name', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('enabled', bool, (c) => c.notNull().defaultTo(sql.raw(d.literal.false)))
        .addColumn('settings_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('grants_json', 'text')
        .addColumn('allow_scoped_principals', bool, (c) => c.notNull().defaultTo(sql.raw(d.literal.false)))
        .execute();
      await db.schema.createIndex('idx_plugin_states_created_at').on('plugin_states').column('created_at').execute();
      await db.schema.createIndex('idx_plugin_states_updated_at').on('plugin_states').column('updated_at').execute();

      await stamps(d.withId(db.schema.createTable('plugin_kvs')))
        .addColumn('plugin_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addUniqueConstraint('uq_plugin_kvs_plugin_key', ['plugin_name', 'key'])
        .execute();

      await stamps(d.withId(db.schema.createTable('plugin_schedules')))
        .addColumn('plugin_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('schedule_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('every_seconds', 'bigint', (c) => c.notNull())
        .addColumn('overlap', 'varchar(20)', (c) => c.notNull().defaultTo('skip'))
        .addColumn('next_due_at', ts, (c) => c.notNull())
        .addColumn('claim_token', 'varchar(80)')
        .addColumn('claimed_at', ts)
        .addColumn('last_run_at', ts)
        .addColumn('last_status', 'varchar(20)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by_user_id', 'integer', owner)
        .addUniqueConstraint('uq_plugin_schedules_plugin_schedule', ['plugin_name', 'schedule_id'])
        .execute();
      await db.schema.createIndex('idx_plugin_schedules_next_due_at').on('plugin_schedules').column('next_due_at').execute();
      await db.schema.createIndex('idx_plugin_schedules_created_by_user_id').on('plugin_schedules').column('created_by_user_id').execute();

      await stamps(d.withId(db.schema.createTable('plugin_scheduled_downloads')))
        .addColumn('plugin_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('due_at', ts, (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('job_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('claim_token', 'varchar(80)')
        .addColumn('claimed_at', ts)
        .addColumn('created_by_user_id', 'integer', owner)
        .execute();
      await db.schema.createIndex('idx_plugin_scheduled_downloads_due_at').on('plugin_scheduled_downloads').column('due_at').execute();
      await db.schema.createIndex('idx_plugin_scheduled_downloads_status').on('plugin_scheduled_downloads').column('status').execute();
    },
  };
}
