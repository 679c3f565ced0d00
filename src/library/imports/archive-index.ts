// What the extraction learns about an archive: the manifest's essentials, a compact catalogue
// of every entity (names, GUIDs, owners, the vocabulary they name, hashes) for planning, and
// where each entity's full JSON was extracted to for the apply.
import { DANGLING_KINDS, SCHEMA_VERSION, blobHash, type DanglingRef, type SchemaKind, type TagRef } from '../archive/format.js';
import { ArchiveError } from '../archive/reader.js';
import { bool, exportIdOf, int, isObj, obj, str, strList, strOrNull, tagRefs, type Obj } from './fields.js';

export interface SchemaEntry {
  exportId: string;
  guid: string | null;
  name: string;
  /** Relation types: the names of their categories (part of their identity). */
  fromCategory?: string | null;
  toCategory?: string | null;
  fromRef?: string | null;
  toRef?: string | null;
}

export interface RelationshipEntry {
  typeRef: string | null;
  typeName: string;
  fromCategory: string | null;
  toCategory: string | null;
}

export interface GroupEntry {
  id: string;
  file: string;
  name: string;
  guid: string | null;
  shell: boolean;
  owner: string | null;
  categoryRef: string | null;
  categoryName: string | null;
  tags: TagRef[];
  relationships: RelationshipEntry[];
}

export interface NoteEntry {
  id: string;
  file: string;
  name: string;
  guid: string | null;
  owner: string | null;
  typeRef: string | null;
  typeName: string | null;
  tags: TagRef[];
}

export interface ResourceEntry {
  id: string;
  file: string;
  name: string;
  guid: string | null;
  owner: string | null;
  hash: string;
  categoryRef: string | null;
  categoryName: string | null;
  tags: TagRef[];
  seriesRef: string | null;
  /** Hashes of the current file and of every version. */
  hashes: string[];
  versions: number;
}

export interface SeriesEntry {
  id: string;
  file: string;
  name: string;
  slug: string;
}

export interface ManifestInfo {
  schemaVersion: number;
  createdAt: string;
  createdBy: string;
  sourceInstanceId: string | null;
  roots: string[];
  dangling: DanglingRef[];
  warnings: string[];
}

export interface ArchiveIndex {
  manifest: ManifestInfo;
  schemas: Partial<Record<SchemaKind, { file: string; entries: SchemaEntry[] }>>;
  groups: GroupEntry[];
  notes: NoteEntry[];
  resources: ResourceEntry[];
  series: SeriesEntry[];
  /** Blobs present in the archive: hash → size. */
  blobs: Record<string, number>;
  previews: string[];
  warnings: string[];
}

/** Checks the manifest: a JSON object with schema_version 1 (absent or other: refused). */
export function readManifest(value: unknown): ManifestInfo {
  if (!isObj(value)) throw new ArchiveError('manifest.json must hold a JSON object');
  if (value.schema_version !== SCHEMA_VERSION) {
    throw new ArchiveError(value.schema_version === undefined ? 'manifest.json has no schema_version' : `unsupported schema_version ${JSON.stringify(value.schema_version).slice(0, 40)}; only ${SCHEMA_VERSION} is supported`);
  }
  const dangling = (Array.isArray(value.dangling_references) ? value.dangling_references : []).filter(isObj).flatMap((d): DanglingRef[] => {
    const kind = str(d.kind) as DanglingRef['kind'];
    if (!DANGLING_KINDS.includes(kind) || typeof d.id !== 'string') return [];
    const stub = obj(d.to_stub);
    const ref: DanglingRef = { id: exportIdOf(d.id, ''), kind, from: str(d.from), to_stub: { source_id: int(stub.source_id), name: str(stub.name), reason: str(stub.reason) } };
    if (typeof d.relation_type_name === 'string') ref.relation_type_name = d.relation_type_name;
    return ref.id ? [ref] : [];
  });
  return {
    schemaVersion: SCHEMA_VERSION,
    createdAt: str(value.created_at),
    createdBy: str(value.created_by),
    sourceInstanceId: strOrNull(value.source_instance_id),
    roots: strList(value.roots),
    dangling,
    warnings: strList(value.warnings, 1000),
  };
}

export function schemaEntries(kind: SchemaKind, value: unknown): SchemaEntry[] {
  if (!Array.isArray(value)) throw new ArchiveError(`schemas/${kind}.json must hold a JSON array`);
  return value.filter(isObj).flatMap((d, i) => {
    const name = str(d.name).trim();
    if (name === '') return [];
    const entry: SchemaEntry = { exportId: exportIdOf(d.export_id, `${kind}-${i + 1}`), guid: strOrNull(d.guid), name };
    if (kind === 'group_relation_types') {
      entry.fromCategory = strOrNull(d.from_category_name);
      entry.toCategory = strOrNull(d.to_category_name);
      entry.fromRef = strOrNull(d.from_category_ref);
      entry.toRef = strOrNull(d.to_category_ref);
    }
    return [entry];
  });
}

export function groupEntry(d: Obj, key: string, file: string): GroupEntry {
  return {
    id: exportIdOf(d.export_id, key),
    file,
    name: str(d.name),
    guid: strOrNull(d.guid),
    shell: bool(d.shell),
    owner: strOrNull(d.owner_ref),
    categoryRef: strOrNull(d.category_ref),
    categoryName: strOrNull(d.category_name),
    tags: tagRefs(d.tags),
    relationships: (Array.isArray(d.relationships) ? d.relationships : []).filter(isObj).map((r) => ({
      typeRef: strOrNull(r.type_ref),
      typeName: str(r.type_name),
      fromCategory: strOrNull(r.from_category_name),
      toCategory: strOrNull(r.to_category_name),
    })),
  };
}

export function noteEntry(d: Obj, key: string, file: string): NoteEntry {
  return {
    id: exportIdOf(d.export_id, key),
    file,
    name: str(d.name),
    guid: strOrNull(d.guid),
    owner: strOrNull(d.owner_ref),
    typeRef: strOrNull(d.note_type_ref),
    typeName: strOrNull(d.note_type_name),
    tags: tagRefs(d.tags),
  };
}

export function resourceEntry(d: Obj, key: string, file: string): ResourceEntry {
  const versions = (Array.isArray(d.versions) ? d.versions : []).filter(isObj);
  const hash = blobHash(d.hash) ?? '';
  return {
    id: exportIdOf(d.export_id, key),
    file,
    name: str(d.name),
    guid: strOrNull(d.guid),
    owner: strOrNull(d.owner_ref),
    hash,
    categoryRef: strOrNull(d.resource_category_ref),
    categoryName: strOrNull(d.resource_category_name),
    tags: tagRefs(d.tags),
    seriesRef: strOrNull(d.series_ref),
    hashes: [...new Set([hash, ...versions.map((v) => blobHash(v.hash) ?? '')].filter((h) => h !== ''))],
    versions: versions.length,
  };
}

export function seriesEntry(d: Obj, key: string, file: string): SeriesEntry {
  const name = str(d.name).trim();
  return { id: exportIdOf(d.export_id, key), file, name, slug: str(d.slug).trim() || name };
}
