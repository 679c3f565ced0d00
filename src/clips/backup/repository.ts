// The SQL of backup and restore (companion §10): a read snapshot on its own connection that the
// dump reads table by table; the staging database a restore fills and checks before anything
// live is touched; and the one transaction that swaps the live rows for the staged ones.
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { connect } from '../../core/db/connect.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import { clipMigrations } from '../schema/migrations.js';
import type { SqlValue } from './sql-text.js';

/** Tables a backup carries, in dump order. api_keys is never exported. */
export const BACKUP_TABLES = ['tags', 'clips', 'clip_tags', 'clip_metadata', 'settings', 'watched_folders', 'plugins', 'plugin_storage', 'plugin_permissions'] as const;
export type BackupTable = (typeof BACKUP_TABLES)[number];

export const isBackupTable = (name: string): name is BackupTable => (BACKUP_TABLES as readonly string[]).includes(name);

/** Settings whose key names a secret are never exported (companion §2.6). */
export const isSensitiveSetting = (key: string) => /api_key|secret|password|token/i.test(key);

/** Columns derived from the bytes, recomputed on restore rather than carried. */
const DERIVED: Partial<Record<BackupTable, string[]>> = { clips: ['text_content'] };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function tableColumns(db: Database.Database, table: string, schema = 'main'): string[] {
  return db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).pluck().all(table, schema) as string[];
}

export interface BackupSummary {
  clips: number;
  tags: number;
  plugins: number;
  watch_folders: number;
}

function summaryOf(db: Database.Database, schema = 'main'): BackupSummary {
  const count = (table: string) => Number(db.prepare(`SELECT COUNT(*) FROM ${schema}.${table}`).pluck().get());
  return { clips: count('clips'), tags: count('tags'), plugins: count('plugins'), watch_folders: count('watched_folders') };
}

/** A consistent read of the live database on a connection of its own (WAL: writers go on). */
export class Snapshot {
  /** A snapshot of the database file on a read-only connection of its own. */
  static open(file: string): Snapshot {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 10000');
    return new Snapshot(db);
  }

  /** Over an open connection (the SQL snapshot test passes a recording one). */
  constructor(private readonly db: Database.Database) {
    this.db.exec('BEGIN');
    // The first read fixes the snapshot that every later read of this transaction sees.
    this.db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  }

  columns(table: BackupTable): string[] {
    const derived = DERIVED[table] ?? [];
    return tableColumns(this.db, table).filter((c) => !derived.includes(c));
  }

  /** Every row as an array in `columns` order, integers as bigint (exact), in rowid order. */
  rows(table: BackupTable, columns: readonly string[]): IterableIterator<unknown[]> {
    const sql = `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} ORDER BY rowid`;
    return this.db.prepare(sql).raw(true).safeIntegers(true).iterate() as IterableIterator<unknown[]>;
  }

  summary(): BackupSummary {
    return summaryOf(this.db);
  }

  sensitiveSettings(): string[] {
    return (this.db.prepare('SELECT key FROM settings ORDER BY key').pluck().all() as string[]).filter(isSensitiveSetting);
  }

  /** Each distinct content once, with one of its types (to decide on compression). */
  contents(): IterableIterator<{ hash: string; type: string }> {
    return this.db.prepare('SELECT content_hash AS hash, MIN(content_type) AS type FROM clips GROUP BY content_hash ORDER BY content_hash').iterate() as IterableIterator<{ hash: string; type: string }>;
  }

  pluginFiles(): string[] {
    return this.db.prepare('SELECT filename FROM plugins ORDER BY id').pluck().all() as string[];
  }

  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }
}

export interface StagedClip {
  id: number;
  content_hash: string;
  content_type: string;
  size: number;
}

/**
 * The rows of a backup being restored, in a database of the live schema (same migrations) with
 * foreign keys off while it fills; checked as a whole afterwards.
 */
export class StagingDb {
  private readonly inserts = new Map<string, Database.Statement>();
  private readonly known = new Map<string, Set<string>>();

  /** Over an open connection to the staging file; `create` makes both. */
  constructor(
    readonly path: string,
    private readonly db: Database.Database,
  ) {}

  static async create(path: string): Promise<StagingDb> {
    const handle = connect({ kind: 'sqlite', dsn: path });
    try {
      await migrateToLatest(handle.db as unknown as Kysely<unknown>, clipMigrations);
    } finally {
      await handle.close();
    }
    const db = new Database(path);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    // Only the backup's rows count; the first-start defaults come back after the swap if absent.
    db.exec('DELETE FROM settings');
    db.exec('BEGIN');
    return new StagingDb(path, db);
  }

  /** Columns of the live schema for a table of the backup. */
  columnsOf(table: BackupTable): Set<string> {
    let set = this.known.get(table);
    if (!set) {
      const derived = DERIVED[table] ?? [];
      set = new Set(tableColumns(this.db, table).filter((c) => !derived.includes(c)));
      this.known.set(table, set);
    }
    return set;
  }

  /** Inserts one row (values bound as parameters); constraint failures throw SqliteError. */
  insert(table: BackupTable, columns: readonly string[], values: readonly SqlValue[]): void {
    const key = `${table}\0${columns.join('\0')}`;
    let statement = this.inserts.get(key);
    if (!statement) {
      statement = this.db.prepare(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      this.inserts.set(key, statement);
    }
    statement.run(...values);
  }

  /** A page of clip rows by id (the connection stays free for updates in between). */
  clipsAfter(id: number, limit = 1000): StagedClip[] {
    return this.db.prepare('SELECT id, content_hash, content_type, size FROM clips WHERE id > ? ORDER BY id LIMIT ?').all(id, limit) as StagedClip[];
  }

  /** Some clip row refers to these bytes. */
  needsContent(hash: string): boolean {
    return this.db.prepare('SELECT 1 FROM clips WHERE content_hash = ? LIMIT 1').get(hash) !== undefined;
  }

  /** The bytes decide: hash (already verified), size and the search excerpt. */
  setContent(id: number, content: { hash: string; size: number; text: string | null }): void {
    this.db.prepare('UPDATE clips SET content_hash = ?, size = ?, text_content = ? WHERE id = ?').run(content.hash, content.size, content.text, id);
  }

  /** Rows whose foreign key points at nothing, as "table row n → parent". */
  danglingReferences(): string[] {
    const rows = this.db.prepare('PRAGMA foreign_key_check').all() as { table: string; rowid: number; parent: string }[];
    return rows.map((r) => `${r.table} row ${r.rowid} refers to a missing ${r.parent} row`);
  }

  summary(): BackupSummary {
    return summaryOf(this.db);
  }

  /** Commits the staged rows to the staging file (nothing live yet) and closes it. */
  finish(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }

  close(): void {
    if (this.db.open) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.db.close();
    }
  }
}

interface ScopedKey {
  id: number;
  scoped_tag_id: number;
  tag_name: string | null;
}

/** The restore's one write to the live database, on its synchronous connection. */
export class LiveRestore {
  constructor(private readonly live: Database.Database) {}

  /**
   * Replaces every backed-up table of the live database with the staged rows in one transaction
   * (companion §10.2 apply step 3). Foreign keys are switched off before BEGIN — clearing `tags`
   * would otherwise null and revoke every scoped key — and checked before COMMIT. Keys whose
   * scope tag vanished or now names another tag are revoked. Runs synchronously: the caller
   * holds the connection so nothing else interleaves. Any failure rolls back and rethrows,
   * leaving the live rows as they were.
   */
  swapInStaged(stagingPath: string, revokedAt: string): void {
    const live = this.live;
    live.prepare('ATTACH DATABASE ? AS restore').run(stagingPath);
    live.pragma('foreign_keys = OFF');
    try {
      live.exec('BEGIN IMMEDIATE');
      try {
        const scoped = live
          .prepare('SELECT k.id, k.scoped_tag_id, t.name AS tag_name FROM api_keys k LEFT JOIN tags t ON t.id = k.scoped_tag_id WHERE k.scoped_tag_id IS NOT NULL')
          .all() as ScopedKey[];
        // Secrets were never exported; the live ones stay unless the backup brings its own.
        const keptSecrets = (live.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[]).filter((s) => isSensitiveSetting(s.key));

        for (const table of [...BACKUP_TABLES].reverse()) live.exec(`DELETE FROM main.${quote(table)}`);
        for (const table of BACKUP_TABLES) {
          const columns = tableColumns(live, table, 'restore')
            .filter((c) => tableColumns(live, table).includes(c))
            .map(quote)
            .join(', ');
          live.exec(`INSERT INTO main.${quote(table)} (${columns}) SELECT ${columns} FROM restore.${quote(table)}`);
        }
        live.exec('UPDATE plugin_permissions SET pending_reconfirm = 1');
        live.exec('UPDATE watched_folders SET is_paused = 1');
        live.exec("INSERT OR IGNORE INTO settings (key, value) VALUES ('global_watch_paused', 'false')");
        const keep = live.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
        for (const s of keptSecrets) keep.run(s.key, s.value);

        const nameOf = live.prepare('SELECT name FROM tags WHERE id = ?').pluck();
        const revoke = live.prepare('UPDATE api_keys SET is_revoked = 1, revoked_at = COALESCE(revoked_at, ?), scoped_tag_id = NULL WHERE id = ?');
        for (const key of scoped) {
          const now = nameOf.get(key.scoped_tag_id) as string | undefined;
          if (now === undefined || now !== key.tag_name) revoke.run(revokedAt, key.id);
        }
        const dangling = live.prepare('PRAGMA main.foreign_key_check').all();
        if (dangling.length > 0) throw new Error(`restored rows break ${dangling.length} foreign keys`);
        live.exec('COMMIT');
      } catch (e) {
        if (live.inTransaction) live.exec('ROLLBACK');
        throw e;
      }
    } finally {
      live.pragma('foreign_keys = ON');
      live.exec('DETACH DATABASE restore');
    }
  }
}
