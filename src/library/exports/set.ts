// What an export contains (companion §7.4), as discovery (collect.ts) finds it and the dangling
// references (dangling.ts) and payloads (payloads.ts) read it: ids, names and sizes only.
import type { VersionRow } from '../resources/records.js';
import type { DanglingRef, SchemaKind } from '../archive/format.js';
import type { ExportOptions } from './options.js';

export interface GroupItem {
  id: number;
  exportId: string;
  name: string;
  guid: string | null;
  ownerId: number | null;
  categoryId: number | null;
  shell: boolean;
}

export interface NoteItem {
  id: number;
  exportId: string;
  name: string;
  guid: string | null;
  ownerId: number | null;
  noteTypeId: number | null;
}

export interface ResourceItem {
  id: number;
  exportId: string;
  name: string;
  guid: string | null;
  ownerId: number | null;
  hash: string;
  fileSize: number;
  seriesId: number | null;
  categoryId: number;
}

export interface BlobItem {
  hash: string;
  size: number;
  location: string;
  storage: string | null;
  /** Set by the job after checking the file on disk. */
  missing: boolean;
}

export interface PreviewItem {
  exportId: string;
  file: string;
  width: number;
  height: number;
  size: number;
}

export interface SchemaItem {
  id: number;
  exportId: string;
  name: string;
  guid: string | null;
}

export interface ExportSet {
  options: ExportOptions;
  roots: number[];
  groups: GroupItem[];
  notes: NoteItem[];
  resources: ResourceItem[];
  series: SchemaItem[];
  versions: Map<number, VersionRow[]>;
  blobs: Map<string, BlobItem>;
  previews: Map<number, PreviewItem[]>;
  schema: Record<SchemaKind, SchemaItem[]>;
  /** Source id → export id, per kind. */
  ids: { group: Map<number, string>; note: Map<number, string>; resource: Map<number, string>; series: Map<number, string> } & Record<SchemaKind, Map<number, string>>;
  dangling: DanglingRef[];
  /** Relation row id → dangling id, for relationships whose target is not exported. */
  relationDangling: Map<number, string>;
  warnings: string[];
}

/** Which groups, notes and resources the caller may export (group-limited principals). */
export interface Visibility {
  group(id: number): boolean;
  owned(ownerId: number | null): boolean;
}
