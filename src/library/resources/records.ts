// JSON shapes of resources and versions (companion §2.1: capitalised resource fields, camelCase
// version fields; unloaded associations serialise as null). present.ts fills them in.
import type { Selectable } from 'kysely';
import { parseJson } from '../../core/db/values.js';
import type { ResourceTable, ResourceVersionTable } from '../schema/database.js';
import type { tagRecord } from '../tags/service.js';
import type { groupRecord } from '../groups/records.js';
import { Filesystems } from './storage.js';

export type ResourceRow = Selectable<ResourceTable>;
export type VersionRow = Selectable<ResourceVersionTable>;

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
