// The Kysely view of the clip store (companion §2.3). Booleans are 0/1 integers; clip and tag
// timestamps are ISO 8601 UTC text, key timestamps "YYYY-MM-DD HH:MM:SS" UTC text (§2.5).
import type { Generated, Kysely } from 'kysely';

export interface ClipTable {
  id: Generated<number>;
  filename: string;
  content_type: string;
  size: number;
  content_hash: string;
  text_content: string | null;
  is_archived: number;
  expires_at: string | null;
  created_at: string;
}

export interface TagTable {
  id: Generated<number>;
  name: string;
  color: string;
  created_at: string;
}

export interface ClipTagTable {
  clip_id: number;
  tag_id: number;
  added_at: string;
}

export interface ClipMetadataTable {
  clip_id: number;
  key: string;
  value: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: string;
  scoped_tag_id: number | null;
  is_revoked: Generated<number>;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface WatchedFolderTable {
  id: Generated<number>;
  path: string;
  filter_mode: string;
  filter_presets: string;
  filter_regex: string;
  process_existing: number;
  auto_archive: number;
  auto_tag_id: number | null;
  is_paused: number;
  created_at: string;
}

export interface PluginTable {
  id: Generated<number>;
  filename: string;
  name: string;
  version: string;
  enabled: number;
  status: string;
  error_count: number;
  last_error: string | null;
  source_url: string;
  created_at: string;
  updated_at: string;
}

export interface PluginPermissionTable {
  id: Generated<number>;
  plugin_id: number;
  permission_type: string;
  path: string;
  granted_at: string;
  pending_reconfirm: number;
}

export interface PluginStorageTable {
  plugin_id: number;
  key: string;
  value: string;
}

/** Bytes of a small upload whose file may not be on disk yet (migration 003). */
export interface BlobJournalTable {
  hash: string;
  /** Milliseconds since the epoch. */
  written_at: number;
  bytes: Buffer;
}

export interface ClipDatabase {
  clips: ClipTable;
  tags: TagTable;
  clip_tags: ClipTagTable;
  clip_metadata: ClipMetadataTable;
  settings: SettingTable;
  api_keys: ApiKeyTable;
  watched_folders: WatchedFolderTable;
  plugins: PluginTable;
  plugin_permissions: PluginPermissionTable;
  plugin_storage: PluginStorageTable;
  blob_journal: BlobJournalTable;
}

export type ClipDb = Kysely<ClipDatabase>;
