// JSON shapes of resources and versions (companion §2.1: capitalised resource fields, camelCase
// version fields; unloaded associations serialise as null) and the batch loaders that fill a
// page of resources with its associations in one statement per association.
import type { Kysely, Selectable } from 'kysely';
import { parseJson } from '../../core/db/values.js';
import type { Database, ResourceTable, ResourceVersionTable } from '../schema/database.js';
import { tagRecord, type TagRow } from '../tags/service.js';
import { groupRecord, type GroupRow } from '../groups/records.js';
import { Filesystems } from './storage.js';

export type ResourceRow = Selectable<ResourceTable>;
export type VersionRow = Selectable<ResourceVersionTable>;
type Db = Kysely<Database>;

export function versionRecord(v: VersionRow) {
  return {
    id: v.id,
    createdAt: v.created_at,
    createdByUserId: v.created_by_user_id,
    resourceId: v.resource_id,
    versionNumber: v.version_number,
    hash: v.hash,
    hashType: v.hash_type,
    fileSize: Number(v.file_size),
    contentType: v.content_type,
    width: v.width,
    height: v.height,
    location: v.location,
    storageLocation: v.storage_location,
    comment: v.comment,
  };
}

export type VersionRecord = ReturnType<typeof versionRecord>;

export function resourceRecord(r: ResourceRow) {
  return {
    ID: r.id,
    CreatedAt: r.created_at,
    UpdatedAt: r.updated_at,
    createdByUserId: r.created_by_user_id,
    guid: r.guid,
    Name: r.name,
    OriginalName: r.original_name,
    OriginalLocation: r.original_location,
    Hash: r.hash,
    HashType: r.hash_type,
    Location: r.location,
    StorageLocation: r.storage_location,
    Description: r.description,
    Meta: parseJson<Record<string, unknown>>(r.meta, {}),
    ownMeta: parseJson<Record<string, unknown>>(r.own_meta, {}),
    Width: r.width,
    Height: r.height,
    FileSize: Number(r.file_size),
    Category: r.category,
    ContentType: r.content_type,
    ContentCategory: r.content_category,
    resourceCategoryId: r.resource_category_id,
    seriesId: r.series_id,
    OwnerId: r.owner_id,
    currentVersionId: r.current_version_id,
    /** Where the file is served (not in the reference record; handy for clients and pages). */
    url: Filesystems.url(r.storage_location, r.location),
    Tags: null as ReturnType<typeof tagRecord>[] | null,
    Notes: null as { ID: number; Name: string }[] | null,
    Groups: null as ReturnType<typeof groupRecord>[] | null,
    Owner: null as ReturnType<typeof groupRecord> | null,
    resourceCategory: null as { ID: number; Name: string; Description: string } | null,
    series: null as { ID: number; Name: string; Slug: string; Meta: Record<string, unknown> } | null,
    Previews: null,
    currentVersion: null as VersionRecord | null,
    versions: null as VersionRecord[] | null,
    imageHash: null as Record<string, unknown> | null,
  };
}

export type ResourceRecord = ReturnType<typeof resourceRecord>;

function groupBy<K, V>(rows: V[], key: (v: V) => K): Map<K, V[]> {
  const m = new Map<K, V[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return m;
}

/** A page of resources with Tags, Owner, resourceCategory and series (four statements at most). */
export async function presentResources(db: Db, rows: ResourceRow[]): Promise<ResourceRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const ownerIds = [...new Set(rows.map((r) => r.owner_id).filter((v): v is number => v !== null))];
  const catIds = [...new Set(rows.map((r) => r.resource_category_id))];
  const seriesIds = [...new Set(rows.map((r) => r.series_id).filter((v): v is number => v !== null))];
  const [tags, owners, cats, series] = await Promise.all([
    db.selectFrom('resource_tags').innerJoin('tags', 'tags.id', 'resource_tags.tag_id').selectAll('tags').select('resource_tags.resource_id').where('resource_tags.resource_id', 'in', ids).orderBy('tags.name').execute(),
    ownerIds.length ? db.selectFrom('groups').selectAll().where('id', 'in', ownerIds).execute() : Promise.resolve([] as GroupRow[]),
    db.selectFrom('resource_categories').select(['id', 'name', 'description']).where('id', 'in', catIds).execute(),
    seriesIds.length ? db.selectFrom('series').select(['id', 'name', 'slug', 'meta']).where('id', 'in', seriesIds).execute() : Promise.resolve([]),
  ]);
  const tagsBy = groupBy(tags, (t) => t.resource_id);
  const ownerBy = new Map(owners.map((g) => [g.id, groupRecord(g)]));
  const catBy = new Map(cats.map((c) => [c.id, { ID: c.id, Name: c.name, Description: c.description }]));
  const seriesBy = new Map(series.map((s) => [s.id, { ID: s.id, Name: s.name, Slug: s.slug, Meta: parseJson<Record<string, unknown>>(s.meta, {}) }]));
  return rows.map((r) => {
    const rec = resourceRecord(r);
    rec.Tags = (tagsBy.get(r.id) ?? []).map((t) => tagRecord(t as unknown as TagRow));
    rec.Owner = r.owner_id === null ? null : (ownerBy.get(r.owner_id) ?? null);
    rec.resourceCategory = catBy.get(r.resource_category_id) ?? null;
    rec.series = r.series_id === null ? null : (seriesBy.get(r.series_id) ?? null);
    return rec;
  });
}

/** The single read: everything a list shows plus Notes, Groups, versions and the image hash. */
export async function presentResource(db: Db, row: ResourceRow): Promise<ResourceRecord> {
  const [rec] = await presentResources(db, [row]);
  const [notes, groups, versions, hash] = await Promise.all([
    db.selectFrom('resource_notes').innerJoin('notes', 'notes.id', 'resource_notes.note_id').select(['notes.id', 'notes.name']).where('resource_notes.resource_id', '=', row.id).orderBy('notes.name').execute(),
    db.selectFrom('groups_related_resources as rr').innerJoin('groups', 'groups.id', 'rr.group_id').selectAll('groups').where('rr.resource_id', '=', row.id).orderBy('groups.name').execute(),
    db.selectFrom('resource_versions').selectAll().where('resource_id', '=', row.id).orderBy('version_number', 'desc').execute(),
    db.selectFrom('image_hashes').select(['a_hash', 'd_hash', 'hash_version', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3', 'status']).where('resource_id', '=', row.id).executeTakeFirst(),
  ]);
  rec.Notes = notes.map((n) => ({ ID: n.id, Name: n.name }));
  rec.Groups = groups.map(groupRecord);
  rec.versions = versions.map(versionRecord);
  rec.currentVersion = rec.versions.find((v) => v.id === row.current_version_id) ?? null;
  rec.imageHash = hash
    ? { aHash: hash.a_hash, dHash: hash.d_hash, hashVersion: hash.hash_version, status: hash.status, pChunks: [hash.p_chunk0, hash.p_chunk1, hash.p_chunk2, hash.p_chunk3] }
    : null;
  return rec;
}
