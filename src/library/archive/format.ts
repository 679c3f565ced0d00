// The group export archive (companion §7.4): a tar whose first entry is manifest.json, then one
// JSON file per schema list and per entity, then content-addressed blobs and preview images.
// Everything inside the archive refers to other entities by export id ("g0001"), never by the
// database ids of the library that wrote it. This file is shared by the writer and the reader.

export const SCHEMA_VERSION = 1;
export const PRODUCER = 'stacks';

/** Bounds that keep reading an untrusted archive cheap. */
export const ARCHIVE_LIMITS = {
  manifestBytes: 64 * 1024 * 1024,
  /** Every other JSON entry (one entity, or one schema list). */
  jsonBytes: 16 * 1024 * 1024,
  /** Entry names longer than this are refused. */
  pathLength: 255,
  /** A gzip archive may expand to at most this many times the import size limit. */
  gzipExpansion: 8,
} as const;

export type Kind = 'group' | 'note' | 'resource' | 'series';
export type SchemaKind = 'categories' | 'note_types' | 'resource_categories' | 'tags' | 'group_relation_types';
export const SCHEMA_KINDS: SchemaKind[] = ['categories', 'note_types', 'resource_categories', 'tags', 'group_relation_types'];

export const SCHEMA_PATHS: Record<SchemaKind, string> = {
  categories: 'schemas/categories.json',
  note_types: 'schemas/note_types.json',
  resource_categories: 'schemas/resource_categories.json',
  tags: 'schemas/tags.json',
  group_relation_types: 'schemas/group_relation_types.json',
};

/** Export id prefixes: entities use one letter, schema definitions their own short prefix. */
export const PREFIX = {
  group: 'g',
  note: 'n',
  resource: 'r',
  series: 's',
  categories: 'c',
  note_types: 'nt',
  resource_categories: 'rc',
  tags: 't',
  group_relation_types: 'rt',
  dangling: 'd',
} as const;

export const ENTITY_DIRS: Record<Kind, string> = { group: 'groups', note: 'notes', resource: 'resources', series: 'series' };

/** Deterministic ids in discovery order: g0001, g0002, … (wider past 9999). */
export function exportId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(4, '0')}`;
}

export const entityPath = (kind: Kind, id: string) => `${ENTITY_DIRS[kind]}/${id}.json`;
export const blobPath = (sha1: string) => `blobs/${sha1}`;
export const previewPath = (previewId: string) => `previews/${previewId}`;

export const SHA1 = /^[0-9a-f]{40}$/;

/** A blob reference in a payload: "blobs/<sha1>" (or a bare hash from other writers). */
export function blobHash(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  const h = ref.startsWith('blobs/') ? ref.slice(6) : ref;
  return SHA1.test(h) ? h : null;
}

export interface ExportScope {
  subtree: boolean;
  owned_resources: boolean;
  owned_notes: boolean;
  related_m2m: boolean;
  group_relations: boolean;
}

export interface ExportFidelity {
  resource_blobs: boolean;
  resource_versions: boolean;
  resource_previews: boolean;
  resource_series: boolean;
}

export interface ExportSchemaDefs {
  categories_and_types: boolean;
  tags: boolean;
  group_relation_types: boolean;
}

export interface ExportCounts {
  groups: number;
  shell_groups: number;
  notes: number;
  resources: number;
  series: number;
  blobs: number;
  previews: number;
  versions: number;
}

export type DanglingKind = 'related_group' | 'related_resource' | 'related_note' | 'group_relation' | 'resource_series_sibling';
export const DANGLING_KINDS: DanglingKind[] = ['related_group', 'related_resource', 'related_note', 'group_relation', 'resource_series_sibling'];

export interface DanglingRef {
  id: string;
  kind: DanglingKind;
  /** Export id of the entity holding the reference. */
  from: string;
  relation_type_name?: string;
  to_stub: { source_id: number; name: string; reason: string };
}

export interface ManifestEntry {
  export_id: string;
  guid?: string | null;
  name: string;
  source_id: number;
  path: string;
  shell?: boolean;
  owner?: string | null;
  hash?: string;
}

export interface Manifest {
  schema_version: number;
  created_at: string;
  created_by: string;
  source_instance_id?: string;
  export_options: { scope: ExportScope; fidelity: ExportFidelity; schema_defs: ExportSchemaDefs; gzip: boolean; related_depth: number };
  roots: string[];
  counts: ExportCounts;
  entries: { groups: ManifestEntry[]; notes: ManifestEntry[]; resources: ManifestEntry[]; series: ManifestEntry[] };
  schema_defs: Record<SchemaKind, ManifestEntry[]>;
  dangling_references: DanglingRef[];
  warnings: string[];
}

export interface TagRef {
  ref: string | null;
  name: string;
}

export interface RelationshipPayload {
  type_ref: string | null;
  type_name: string;
  from_category_name: string | null;
  to_category_name: string | null;
  to_ref?: string;
  dangling_ref?: string;
  name: string;
  description: string;
}

export interface GroupPayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  shell: boolean;
  name: string;
  description: string;
  url: string | null;
  owner_ref: string | null;
  category_ref: string | null;
  category_name: string | null;
  tags: TagRef[];
  related_groups: string[];
  related_resources: string[];
  related_notes: string[];
  relationships: RelationshipPayload[];
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/**
 * Export ids of the entities a block's content names, by content path (an addition of this
 * writer: readers that do not know it ignore it). Unexported targets are null.
 */
export interface BlockRefs {
  resourceIds?: (string | null)[];
  groupIds?: (string | null)[];
  /** Calendar id → export id of the .ics resource it reads. */
  calendars?: Record<string, string | null>;
  /** Saved queries are not exported; a table block names its query so an import can map it. */
  query_name?: string | null;
}

export interface BlockPayload {
  type: string;
  position: string;
  content: Record<string, unknown>;
  state: Record<string, unknown>;
  refs?: BlockRefs;
}

export interface NotePayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  name: string;
  description: string;
  owner_ref: string | null;
  note_type_ref: string | null;
  note_type_name: string | null;
  tags: TagRef[];
  resources: string[];
  groups: string[];
  start_date: string | null;
  end_date: string | null;
  meta: Record<string, unknown>;
  blocks: BlockPayload[];
  created_at: string;
  updated_at: string;
}

export interface VersionPayload {
  version_export_id: string;
  version_number: number;
  hash: string;
  hash_type: string;
  file_size: number;
  content_type: string;
  width: number;
  height: number;
  comment: string;
  blob_ref: string | null;
  blob_missing: boolean;
  created_at: string;
}

export interface PreviewPayload {
  preview_export_id: string;
  width: number;
  height: number;
  content_type: string;
}

export interface ResourcePayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  name: string;
  original_name: string;
  original_location: string;
  hash: string;
  hash_type: string;
  file_size: number;
  content_type: string;
  content_category: string;
  width: number;
  height: number;
  description: string;
  category: string;
  meta: Record<string, unknown>;
  own_meta: Record<string, unknown>;
  owner_ref: string | null;
  resource_category_ref: string | null;
  resource_category_name: string | null;
  tags: TagRef[];
  groups: string[];
  notes: string[];
  storage_location: string | null;
  blob_ref: string | null;
  blob_missing: boolean;
  series_ref: string | null;
  current_version_ref: string | null;
  versions: VersionPayload[];
  previews: PreviewPayload[];
  created_at: string;
  updated_at: string;
}

export interface SeriesPayload {
  export_id: string;
  source_id: number;
  name: string;
  slug: string;
  meta: Record<string, unknown>;
}

/** Categories, note types and resource categories: name, description and every slot. */
export interface CarrierPayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  name: string;
  description: string;
  [slot: string]: unknown;
}

export interface TagPayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  name: string;
  description: string;
  meta: Record<string, unknown>;
}

export interface RelationTypePayload {
  export_id: string;
  source_id: number;
  guid: string | null;
  name: string;
  description: string;
  from_category_ref: string | null;
  to_category_ref: string | null;
  from_category_name: string | null;
  to_category_name: string | null;
  back_relation_ref: string | null;
}

/** The template slots of each carrier, as archive keys (= column names). */
const SHARED_SLOTS = [
  'custom_header',
  'custom_sidebar',
  'custom_summary',
  'custom_avatar',
  'custom_list_header',
  'custom_detail_footer',
  'custom_list_footer',
  'custom_hover_card',
  'custom_mrql_result',
  'custom_css',
  'meta_schema',
];

export const CARRIER_TEXT_COLUMNS: Record<'categories' | 'note_types' | 'resource_categories', string[]> = {
  categories: [...SHARED_SLOTS, 'custom_own_entities'],
  note_types: SHARED_SLOTS,
  resource_categories: [...SHARED_SLOTS, 'custom_preview', 'custom_lightbox', 'custom_cell', 'auto_detect_rules'],
};
