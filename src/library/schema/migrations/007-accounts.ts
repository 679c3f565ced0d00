// Sessions, API tokens, account settings and saved searches (companion §2.5), and the user
// indexes the initial schema left out.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

async function indexes(db: AnyDb, table: string, columns: string[]): Promise<void> {
  for (const c of columns) await db.schema.createIndex(`idx_${table}_${c}`).on(table).column(c).execute();
}

export function accountsMigration(d: Dialect): Migration {
  const { timestamp: ts, bool } = d.columnType;
  const stamps = <T extends string>(t: import('kysely').CreateTableBuilder<T, 'id'>) =>
    t.addColumn('created_at', ts, (c) => c.notNull()).addColumn('updated_at', ts, (c) => c.notNull());
  const owner = (c: import('kysely').ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');

  return {
    async up(db: AnyDb) {
      await indexes(db, 'users', ['created_at', 'updated_at', 'disabled', 'password_auto_generated']);

      await stamps(d.withId(db.schema.createTable('sessions')))
        .addColumn('user_id', 'integer', owner)
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('last_seen_at', ts)
        .addColumn('user_agent', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(45)', (c) => c.notNull().defaultTo(''))
        .execute();
      await indexes(db, 'sessions', ['created_at', 'user_id', 'expires_at']);

      await stamps(d.withId(db.schema.createTable('api_tokens')))
        .addColumn('user_id', 'integer', owner)
        .addColumn('name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('prefix', 'varchar(24)', (c) => c.notNull())
        .addColumn('expires_at', ts)
        .addColumn('last_used_at', ts)
        .addColumn('disabled', bool, (c) => c.notNull().defaultTo(sql.raw(d.literal.false)))
        .execute();
      await indexes(db, 'api_tokens', ['created_at', 'user_id', 'prefix', 'expires_at', 'disabled']);

      await stamps(d.withId(db.schema.createTable('user_settings')))
        .addColumn('user_id', 'integer', owner)
        .addColumn('key', 'varchar(128)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addUniqueConstraint('uq_user_settings_user_key', ['user_id', 'key'])
        .execute();
      await indexes(db, 'user_settings', ['user_id']);

      await stamps(d.withId(db.schema.createTable('saved_searches')))
        .addColumn('user_id', 'integer', owner)
        .addColumn('name', 'varchar(800)', (c) => c.notNull())
        .addColumn('family', 'varchar(32)', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('layout', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('idx_saved_searches_user_family_name').on('saved_searches').columns(['user_id', 'family', 'name']).execute();
    },
  };
}
