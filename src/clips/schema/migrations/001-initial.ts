// The clip store's schema (companion §2.3), SQLite only. Tables of later features (watch
// folders, plugins) are created now so tag deletion already has its documented effects on them
// and those features only add code.
import { sql, type Kysely, type Migration } from 'kysely';

const STATEMENTS = [
  `CREATE TABLE clips (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    filename      TEXT    NOT NULL DEFAULT '',
    content_type  TEXT    NOT NULL,
    size          INTEGER NOT NULL,
    content_hash  TEXT    NOT NULL,
    text_content  TEXT,
    is_archived   INTEGER NOT NULL DEFAULT 0,
    expires_at    TEXT,
    created_at    TEXT    NOT NULL
  )`,
  `CREATE INDEX idx_clips_content_hash ON clips(content_hash)`,
  `CREATE INDEX idx_clips_created ON clips(created_at DESC, id DESC)`,
  `CREATE INDEX idx_clips_archived ON clips(is_archived, created_at DESC)`,
  `CREATE INDEX idx_clips_type ON clips(content_type)`,
  `CREATE INDEX idx_clips_expires ON clips(expires_at) WHERE expires_at IS NOT NULL`,
  `CREATE TABLE tags (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE,
    color      TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE TABLE clip_tags (
    clip_id  INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
    tag_id   INTEGER NOT NULL REFERENCES tags(id)  ON DELETE CASCADE,
    added_at TEXT    NOT NULL,
    PRIMARY KEY (clip_id, tag_id)
  )`,
  `CREATE INDEX idx_clip_tags_tag ON clip_tags(tag_id, clip_id)`,
  `CREATE TABLE clip_metadata (
    clip_id INTEGER NOT NULL REFERENCES clips(id) ON DELETE CASCADE,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (clip_id, key)
  )`,
  `CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`,
  `CREATE TABLE api_keys (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    key_hash      TEXT    NOT NULL UNIQUE,
    key_prefix    TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('viewer','editor','admin')),
    scoped_tag_id INTEGER REFERENCES tags(id) ON DELETE SET NULL,
    is_revoked    INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL,
    last_used_at  TEXT,
    revoked_at    TEXT
  )`,
  `CREATE INDEX idx_api_keys_revoked ON api_keys(is_revoked, revoked_at)`,
  // Safety net: whatever clears a key's scope (a tag deletion) also revokes the key. The tag
  // service revokes explicitly first, with the service clock; COALESCE keeps that time.
  `CREATE TRIGGER api_keys_revoke_on_scope_null
   AFTER UPDATE OF scoped_tag_id ON api_keys
   WHEN NEW.scoped_tag_id IS NULL AND OLD.scoped_tag_id IS NOT NULL
   BEGIN
     UPDATE api_keys
        SET is_revoked = 1,
            revoked_at = COALESCE(revoked_at, strftime('%Y-%m-%d %H:%M:%S','now'))
      WHERE id = NEW.id;
   END`,
  `CREATE TABLE watched_folders (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    path             TEXT    NOT NULL UNIQUE,
    filter_mode      TEXT    NOT NULL DEFAULT 'all' CHECK (filter_mode IN ('all','presets','custom')),
    filter_presets   TEXT    NOT NULL DEFAULT '[]',
    filter_regex     TEXT    NOT NULL DEFAULT '',
    process_existing INTEGER NOT NULL DEFAULT 0,
    auto_archive     INTEGER NOT NULL DEFAULT 0,
    auto_tag_id      INTEGER REFERENCES tags(id) ON DELETE SET NULL,
    is_paused        INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT    NOT NULL
  )`,
  `CREATE TABLE plugins (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    filename    TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    version     TEXT    NOT NULL DEFAULT '',
    enabled     INTEGER NOT NULL DEFAULT 1,
    status      TEXT    NOT NULL DEFAULT 'loaded' CHECK (status IN ('loaded','disabled','error')),
    error_count INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    source_url  TEXT    NOT NULL DEFAULT '',
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
  )`,
  `CREATE TABLE plugin_permissions (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    plugin_id         INTEGER NOT NULL REFERENCES plugins(id) ON DELETE CASCADE,
    permission_type   TEXT    NOT NULL CHECK (permission_type IN ('fs_read','fs_write')),
    path              TEXT    NOT NULL,
    granted_at        TEXT    NOT NULL,
    pending_reconfirm INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE plugin_storage (
    plugin_id INTEGER NOT NULL REFERENCES plugins(id) ON DELETE CASCADE,
    key       TEXT    NOT NULL,
    value     TEXT    NOT NULL,
    PRIMARY KEY (plugin_id, key)
  )`,
  `INSERT INTO settings (key, value) VALUES ('global_watch_paused', 'false'), ('hidden_tags', '[]')`,
];

export const initialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
  },
};
