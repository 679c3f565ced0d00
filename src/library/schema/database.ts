// The Kysely view of the library database (companion §2 is the master for names).
// Timestamps are ISO strings on both engines, JSON columns are text, booleans read via bool().
import type { Generated, Kysely } from 'kysely';

type Id = Generated<number>;
type Ts = string;
type Json = string;
type Bool = number | boolean;

interface Stamped {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  created_by_user_id: number | null;
}

interface Guided extends Stamped {
  guid: string | null;
}

export interface UserTable extends Omit<Guided, 'created_by_user_id'> {
  username: string;
  display_name: string;
  password_hash: string;
  role: string;
  scope_group_id: number | null;
  disabled: Bool;
  password_auto_generated: Bool;
  last_login_at: Ts | null;
}

export interface TagTable extends Guided {
  name: string;
  description: string;
  meta: Json;
}

/** Template slots shared by the three carriers (categories, resource categories, note types). */
export interface CarrierColumns extends Guided {
  name: string;
  description: string;
  custom_header: string;
  custom_detail_footer: string;
  custom_sidebar: string;
  custom_summary: string;
  custom_avatar: string;
  custom_hover_card: string;
  custom_list_header: string;
  custom_list_footer: string;
  custom_mrql_result: string;
  custom_css: string;
  meta_schema: string;
  section_config: Json;
}

export interface CategoryTable extends CarrierColumns {
  custom_own_entities: string;
}

export interface ResourceCategoryTable extends CarrierColumns {
  custom_preview: string;
  custom_lightbox: string;
  custom_cell: string;
  auto_detect_rules: string;
}

export interface NoteTypeTable extends CarrierColumns {
  apply_templates_to_shares: Bool;
}

export interface TemplatePartialTable extends Guided {
  name: string;
  description: string;
  content: string;
}

export interface QueryTable extends Stamped {
  name: string;
  text: string;
  template: string;
  description: string;
}

export interface SeriesTable extends Stamped {
  name: string;
  slug: string;
  meta: Json;
}

export interface GroupTable extends Guided {
  name: string;
  description: string;
  url: string | null;
  meta: Json;
  owner_id: number | null;
  category_id: number | null;
}

export interface NoteTable extends Guided {
  name: string;
  description: string;
  meta: Json;
  owner_id: number | null;
  start_date: Ts | null;
  end_date: Ts | null;
  note_type_id: number | null;
  share_token: string | null;
  share_created_at: Ts | null;
}

export interface ResourceTable extends Guided {
  name: string;
  original_name: string;
  original_location: string;
  hash: string;
  hash_type: string;
  location: string;
  storage_location: string | null;
  description: string;
  meta: Json;
  own_meta: Json;
  width: number;
  height: number;
  file_size: number;
  category: string;
  content_type: string;
  content_category: string;
  resource_category_id: number;
  series_id: number | null;
  owner_id: number | null;
  current_version_id: number | null;
}

export interface RelationTypeTable extends Guided {
  name: string;
  description: string;
  from_category_id: number | null;
  to_category_id: number | null;
  back_relation_id: number | null;
}

export interface RelationTable extends Stamped {
  name: string;
  description: string;
  from_group_id: number;
  to_group_id: number;
  relation_type_id: number;
}

export interface ResourceVersionTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  created_by_user_id: number | null;
  resource_id: number;
  version_number: number;
  hash: string;
  hash_type: string;
  file_size: number;
  content_type: string;
  width: number;
  height: number;
  location: string;
  storage_location: string | null;
  comment: string;
}

export interface ImageHashTable {
  id: Id;
  resource_id: number;
  a_hash: string;
  d_hash: string;
  a_hash_int: number | null;
  d_hash_int: number | null;
  hash_version: number | null;
  p_hash_int: number | null;
  p_chunk0: number | null;
  p_chunk1: number | null;
  p_chunk2: number | null;
  p_chunk3: number | null;
  status: string;
}

export interface ResourceSimilarityTable {
  id: Id;
  resource_id1: number;
  resource_id2: number;
  hamming_distance: number;
  p_distance: number | null;
  a_distance: number | null;
}

export interface NoteBlockTable extends Stamped {
  note_id: number;
  type: string;
  position: string;
  content: Json;
  state: Json;
}

export interface SavedMrqlQueryTable extends Stamped {
  name: string;
  query: string;
  description: string;
}

export interface DownloadHistoryTable {
  id: Id;
  job_id: string;
  url: string;
  name: string;
  status: string;
  error: string;
  resource_id: number | null;
  total_size: number;
  progress: number;
  attempts: number;
  created_at: Ts;
  started_at: Ts | null;
  completed_at: Ts | null;
  created_by_user_id: number | null;
  payload: Json | null;
  last_retry_job_id: string;
  last_retry_at: Ts | null;
}

export interface RuntimeSettingTable {
  key: string;
  value_json: string;
  reason: string;
  updated_at: Ts;
}

export interface LogEntryTable {
  id: Id;
  created_at: Ts;
  level: string;
  action: string;
  entity_type: string;
  entity_id: number | null;
  entity_name: string;
  message: string;
  details: Json | null;
  request_path: string;
  user_agent: string;
  ip_address: string;
}

export interface SessionTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  user_id: number;
  token_hash: string;
  csrf_token: string;
  expires_at: Ts;
  last_seen_at: Ts | null;
  user_agent: string;
  ip: string;
}

export interface ApiTokenTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  user_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  expires_at: Ts | null;
  last_used_at: Ts | null;
  disabled: Bool;
}

export interface UserSettingTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  user_id: number;
  key: string;
  value: string;
}

export interface SavedSearchTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  user_id: number;
  name: string;
  family: string;
  url: string;
  layout: string;
}

export interface PluginStateTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  plugin_name: string;
  enabled: Generated<Bool>;
  settings_json: Generated<string>;
  grants_json: string | null;
  allow_scoped_principals: Generated<Bool>;
}

export interface PluginKvTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  plugin_name: string;
  key: string;
  value: string;
}

export interface PluginScheduleTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  plugin_name: string;
  schedule_id: string;
  every_seconds: number;
  overlap: string;
  next_due_at: Ts;
  claim_token: string | null;
  claimed_at: Ts | null;
  last_run_at: Ts | null;
  last_status: Generated<string>;
  last_error: Generated<string>;
  runs: Generated<number>;
  created_by_user_id: number | null;
}

export interface PluginScheduledDownloadTable {
  id: Id;
  created_at: Ts;
  updated_at: Ts;
  plugin_name: string;
  url: string;
  payload: string;
  due_at: Ts;
  status: string;
  job_id: Generated<string>;
  last_error: Generated<string>;
  attempts: Generated<number>;
  claim_token: string | null;
  claimed_at: Ts | null;
  created_by_user_id: number | null;
}

export interface Database {
  users: UserTable;
  tags: TagTable;
  categories: CategoryTable;
  resource_categories: ResourceCategoryTable;
  note_types: NoteTypeTable;
  template_partials: TemplatePartialTable;
  queries: QueryTable;
  series: SeriesTable;
  groups: GroupTable;
  notes: NoteTable;
  resources: ResourceTable;
  group_relation_types: RelationTypeTable;
  group_relations: RelationTable;
  log_entries: LogEntryTable;
  resource_versions: ResourceVersionTable;
  image_hashes: ImageHashTable;
  resource_similarities: ResourceSimilarityTable;
  note_blocks: NoteBlockTable;
  saved_mrql_queries: SavedMrqlQueryTable;
  download_history_entries: DownloadHistoryTable;
  runtime_settings: RuntimeSettingTable;
  sessions: SessionTable;
  api_tokens: ApiTokenTable;
  user_settings: UserSettingTable;
  saved_searches: SavedSearchTable;
  plugin_states: PluginStateTable;
  plugin_kvs: PluginKvTable;
  plugin_schedules: PluginScheduleTable;
  plugin_scheduled_downloads: PluginScheduledDownloadTable;
  resource_tags: { resource_id: number; tag_id: number };
  note_tags: { note_id: number; tag_id: number };
  group_tags: { group_id: number; tag_id: number };
  resource_notes: { resource_id: number; note_id: number };
  groups_related_resources: { group_id: number; resource_id: number };
  groups_related_notes: { group_id: number; note_id: number };
  group_related_groups: { group_id: number; related_group_id: number };
}

export type LibraryDb = Kysely<Database>;
