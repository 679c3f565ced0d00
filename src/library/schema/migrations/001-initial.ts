// Initial library schema (companion §2): content tables, join tables, accounts, audit log.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/** A table with id, created_at, updated_at and created_by_user_id (+ guid when asked). */
function base(db: AnyDb, d: Dialect, name: string, guid = true) {
  let t = withTimestamps(d, d.withId(db.schema.createTable(name))).addColumn('created_by_user_id', 'integer');
  if (guid) t = t.addColumn('guid', 'varchar(36)', (c) => c.unique());
  return t;
}

const text = (c: import('kysely').ColumnDefinitionBuilder) => c.notNull().defaultTo('');

const SLOTS = [
  'custom_header',
  'custom_detail_footer',
  'custom_sidebar',
  'custom_summary',
  'custom_avatar',
  'custom_hover_card',
  'custom_list_header',
  'custom_list_footer',
  'custom_mrql_result',
  'custom_css',
  'meta_schema',
];

async function index(db: AnyDb, table: string, columns: string[], unique = false): Promise<void> {
  const name = `idx_${table}_${columns.join('_')}`;
  let b = db.schema.createIndex(name).on(table).columns(columns);
  if (unique) b = b.unique();
  await b.execute();
}

async function lowerNameIndex(db: AnyDb, table: string): Promise<void> {
  await sql`CREATE INDEX ${sql.raw(`idx_${table}_lower_name`)} ON ${sql.table(table)} (lower(name))`.execute(db);
}

/** created_at / updated_at (UTC). */
function withTimestamps<T extends string, C extends string>(d: Dialect, table: import('kysely').CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', d.columnType.timestamp, (c) => c.notNull())
    .addColumn('updated_at', d.columnType.timestamp, (c) => c.notNull());
}

export function initialMigration(d: Dialect): Migration {
  const { json, timestamp: ts, bool } = d.columnType;
  const emptyObject = sql.raw(d.literal.emptyJsonObject);
  const falseValue = sql.raw(d.literal.false);

  return {
    async up(db: AnyDb) {
      await withTimestamps(d, d.withId(db.schema.createTable('users')))
        .addColumn('guid', 'varchar(36)', (c) => c.unique())
        .addColumn('username', 'varchar(128)', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', text)
        .addColumn('password_hash', 'text', text)
        .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
        .addColumn('scope_group_id', 'integer')
        .addColumn('disabled', bool, (c) => c.notNull().defaultTo(falseValue))
        .addColumn('password_auto_generated', bool, (c) => c.notNull().defaultTo(falseValue))
        .addColumn('last_login_at', ts)
        .execute();

      await base(db, d, 'tags')
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', text)
        .addColumn('meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .execute();

      const carrier = (name: string, extra: string[]) => {
        let t = base(db, d, name).addColumn('name', 'text', (c) => (name === 'note_types' ? c.notNull() : c.notNull().unique()));
        t = t.addColumn('description', 'text', text);
        for (const slot of [...SLOTS, ...extra]) t = t.addColumn(slot, 'text', text);
        return t.addColumn('section_config', json, (c) => c.notNull().defaultTo(emptyObject));
      };
      await carrier('categories', ['custom_own_entities']).execute();
      await carrier('resource_categories', ['custom_preview', 'custom_lightbox', 'custom_cell', 'auto_detect_rules']).execute();
      await carrier('note_types', [])
        .addColumn('apply_templates_to_shares', bool, (c) => c.notNull().defaultTo(falseValue))
        .execute();

      await base(db, d, 'template_partials')
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', text)
        .addColumn('content', 'text', text)
        .execute();

      await base(db, d, 'queries', false)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('text', 'text', text)
        .addColumn('template', 'text', text)
        .addColumn('description', 'text', text)
        .execute();

      await base(db, d, 'series', false)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .execute();

      await base(db, d, 'groups')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', text)
        .addColumn('url', 'text')
        .addColumn('meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .addColumn('owner_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
        .execute();

      await base(db, d, 'notes')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', text)
        .addColumn('meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .addColumn('owner_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('start_date', ts)
        .addColumn('end_date', ts)
        .addColumn('note_type_id', 'integer', (c) => c.references('note_types.id').onDelete('set null'))
        .addColumn('share_token', 'varchar(32)', (c) => c.unique())
        .addColumn('share_created_at', ts)
        .execute();

      await base(db, d, 'resources')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('original_name', 'text', text)
        .addColumn('original_location', 'text', text)
        .addColumn('hash', 'text', text)
        .addColumn('hash_type', 'text', (c) => c.notNull().defaultTo('SHA1'))
        .addColumn('location', 'text', text)
        .addColumn('storage_location', 'text')
        .addColumn('description', 'text', text)
        .addColumn('meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .addColumn('own_meta', json, (c) => c.notNull().defaultTo(emptyObject))
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('category', 'text', text)
        .addColumn('content_type', 'text', text)
        .addColumn('content_category', 'text', text)
        .addColumn('resource_category_id', 'integer', (c) => c.notNull().references('resource_categories.id'))
        .addColumn('series_id', 'integer', (c) => c.references('series.id').onDelete('set null'))
        .addColumn('owner_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('current_version_id', 'integer')
        .execute();

      await base(db, d, 'group_relation_types')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', text)
        .addColumn('from_category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
        .addColumn('to_category_id', 'integer', (c) => c.references('categories.id').onDelete('cascade'))
        .addColumn('back_relation_id', 'integer', (c) => c.references('group_relation_types.id').onDelete('set null'))
        .addUniqueConstraint('uq_relation_type_name_categories', ['name', 'from_category_id', 'to_category_id'])
        .execute();

      await base(db, d, 'group_relations', false)
        .addColumn('name', 'text', text)
        .addColumn('description', 'text', text)
        .addColumn('from_group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('to_group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('relation_type_id', 'integer', (c) => c.notNull().references('group_relation_types.id').onDelete('cascade'))
        .addUniqueConstraint('uq_group_relation', ['from_group_id', 'to_group_id', 'relation_type_id'])
        .addCheckConstraint('ck_group_relation_not_self', sql`to_group_id <> from_group_id`)
        .execute();

      // Content tables whose features arrive in later issues, created here so every feature
      // (and MRQL, which reads all of them) sees one schema (companion §2.1, §2.3).
      await base(db, d, 'resource_versions', false)
        .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
        .addColumn('version_number', 'integer', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('hash_type', 'text', (c) => c.notNull().defaultTo('SHA1'))
        .addColumn('file_size', 'bigint', (c) => c.notNull())
        .addColumn('content_type', 'text', text)
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('location', 'text', (c) => c.notNull())
        .addColumn('storage_location', 'text')
        .addColumn('comment', 'text', text)
        .addUniqueConstraint('uq_resource_version_number', ['resource_id', 'version_number'])
        .execute();

      await d.withId(db.schema.createTable('image_hashes'))
        .addColumn('resource_id', 'integer', (c) => c.notNull().unique().references('resources.id').onDelete('cascade'))
        .addColumn('a_hash', 'text', text)
        .addColumn('d_hash', 'text', text)
        .addColumn('a_hash_int', 'bigint')
        .addColumn('d_hash_int', 'bigint')
        .addColumn('hash_version', 'integer')
        .addColumn('p_hash_int', 'bigint')
        .addColumn('p_chunk0', 'integer')
        .addColumn('p_chunk1', 'integer')
        .addColumn('p_chunk2', 'integer')
        .addColumn('p_chunk3', 'integer')
        .addColumn('status', 'text', text)
        .execute();

      await d.withId(db.schema.createTable('resource_similarities'))
        .addColumn('resource_id1', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
        .addColumn('resource_id2', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
        .addColumn('hamming_distance', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('p_distance', 'smallint')
        .addColumn('a_distance', 'smallint')
        .addUniqueConstraint('uq_resource_similarity_pair', ['resource_id1', 'resource_id2'])
        .addCheckConstraint('ck_resource_similarity_order', sql`resource_id1 < resource_id2`)
        .execute();

      await base(db, d, 'note_blocks', false)
        .addColumn('note_id', 'integer', (c) => c.notNull().references('notes.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('position', 'varchar(64)', (c) => c.notNull())
        .addColumn('content', json, (c) => c.notNull().defaultTo(emptyObject))
        .addColumn('state', json, (c) => c.notNull().defaultTo(emptyObject))
        .execute();

      await base(db, d, 'saved_mrql_queries', false)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('query', 'text', text)
        .addColumn('description', 'text', text)
        .execute();

      const join = async (table: string, a: [string, string], b: [string, string]) => {
        await db.schema
          .createTable(table)
          .addColumn(a[0], 'integer', (c) => c.notNull().references(`${a[1]}.id`).onDelete('cascade'))
          .addColumn(b[0], 'integer', (c) => c.notNull().references(`${b[1]}.id`).onDelete('cascade'))
          .addPrimaryKeyConstraint(`pk_${table}`, [a[0], b[0]])
          .execute();
        await index(db, table, [b[0]]);
      };
      await join('resource_tags', ['resource_id', 'resources'], ['tag_id', 'tags']);
      await join('note_tags', ['note_id', 'notes'], ['tag_id', 'tags']);
      await join('group_tags', ['group_id', 'groups'], ['tag_id', 'tags']);
      await join('resource_notes', ['resource_id', 'resources'], ['note_id', 'notes']);
      await join('groups_related_resources', ['group_id', 'groups'], ['resource_id', 'resources']);
      await join('groups_related_notes', ['group_id', 'groups'], ['note_id', 'notes']);
      await join('group_related_groups', ['group_id', 'groups'], ['related_group_id', 'groups']);

      await d.withId(db.schema.createTable('log_entries'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('level', 'varchar(20)', (c) => c.notNull())
        .addColumn('action', 'varchar(20)', (c) => c.notNull())
        .addColumn('entity_type', 'varchar(50)', text)
        .addColumn('entity_id', 'integer')
        .addColumn('entity_name', 'varchar(255)', text)
        .addColumn('message', 'varchar(1000)', text)
        .addColumn('details', json)
        .addColumn('request_path', 'varchar(500)', text)
        .addColumn('user_agent', 'varchar(500)', text)
        .addColumn('ip_address', 'varchar(45)', text)
        .execute();

      // Indexes: every list filters or sorts by these.
      for (const t of ['tags', 'categories', 'resource_categories', 'note_types', 'template_partials', 'queries', 'series', 'groups', 'notes', 'resources']) {
        await index(db, t, ['created_at']);
        await index(db, t, ['updated_at']);
        await lowerNameIndex(db, t);
      }
      for (const [t, cols] of Object.entries({
        users: ['role', 'scope_group_id'],
        tags: ['created_by_user_id'],
        groups: ['owner_id', 'category_id', 'url', 'created_by_user_id'],
        notes: ['owner_id', 'note_type_id', 'start_date', 'end_date', 'share_created_at', 'created_by_user_id'],
        resources: ['owner_id', 'resource_category_id', 'series_id', 'hash', 'content_type', 'file_size', 'width', 'height', 'original_name', 'created_by_user_id'],
        group_relations: ['to_group_id', 'relation_type_id'],
        groups_related_resources: ['group_id'],
        resource_notes: ['resource_id'],
        log_entries: ['created_at', 'level', 'action', 'entity_type', 'entity_id'],
      })) {
        for (const c of cols) await index(db, t, [c]);
      }
      await index(db, 'log_entries', ['entity_type', 'entity_id']);
      for (const [t, cols] of Object.entries({
        resource_versions: ['resource_id', 'hash', 'created_at'],
        image_hashes: ['a_hash', 'd_hash', 'a_hash_int', 'd_hash_int', 'hash_version', 'p_hash_int', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3', 'status'],
        resource_similarities: ['resource_id1', 'resource_id2', 'p_distance'],
        note_blocks: ['note_id', 'created_at', 'updated_at'],
        saved_mrql_queries: ['created_at', 'updated_at'],
      })) {
        for (const c of cols) await index(db, t, [c]);
      }
      await index(db, 'resource_similarities', ['resource_id1', 'hamming_distance']);
      await index(db, 'resource_similarities', ['resource_id2', 'hamming_distance']);
      await index(db, 'note_blocks', ['note_id', 'type', 'position']);
      await index(db, 'note_blocks', ['note_id', 'position']);
    },
  };
}
