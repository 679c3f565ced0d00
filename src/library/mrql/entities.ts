// Entity objects of MRQL results (mrql.md §15.6): the entity's own scalar columns only, with the
// member names of the API document.
import { parseJson } from '../../core/db/values.js';
import type { Entity } from './fields.js';
import { rfc3339 } from './values.js';

export const COLUMNS: Record<Entity, string[]> = {
  resource: [
    'id', 'name', 'description', 'created_at', 'updated_at', 'guid', 'meta', 'owner_id', 'resource_category_id',
    'content_type', 'file_size', 'width', 'height', 'original_name', 'original_location', 'hash',
  ],
  note: ['id', 'name', 'description', 'created_at', 'updated_at', 'guid', 'meta', 'owner_id', 'note_type_id', 'start_date', 'end_date', 'share_token'],
  group: ['id', 'name', 'description', 'created_at', 'updated_at', 'guid', 'meta', 'owner_id', 'category_id', 'url'],
};

/** What a link or a fixed-format row of a result shows (RunOptions.fields = 'link'). */
export const LINK_COLUMNS = ['id', 'name', 'description'];

export function selectList(entity: Entity, alias = 'e', columns = COLUMNS[entity]): string {
  return columns.map((c) => `${alias}.${c}`).join(', ');
}

export type Row = Record<string, unknown>;
export type EntityObject = Record<string, unknown>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

// Each kind is one object literal: spreading a shared part into a bigger literal took V8's slow
// path (about 18 µs a row against 1 µs), which was most of the cost of a rendered result page.
export function entityObject(entity: Entity, r: Row): EntityObject {
  const ID = num(r.id);
  const CreatedAt = rfc3339(r.created_at);
  const UpdatedAt = rfc3339(r.updated_at);
  const guid = r.guid ?? null;
  const Meta = parseJson<Record<string, unknown>>(r.meta, {});
  const OwnerId = num(r.owner_id);
  const { name: Name, description: Description } = r;
  if (entity === 'resource') {
    return {
      ID, Name, Description, CreatedAt, UpdatedAt, guid, Meta, OwnerId,
      ContentType: r.content_type,
      FileSize: num(r.file_size),
      Width: num(r.width),
      Height: num(r.height),
      OriginalName: r.original_name,
      OriginalLocation: r.original_location,
      Hash: r.hash,
      ResourceCategoryId: num(r.resource_category_id),
    };
  }
  if (entity === 'note') {
    return {
      ID, Name, Description, CreatedAt, UpdatedAt, guid, Meta, OwnerId,
      NoteTypeId: num(r.note_type_id),
      StartDate: rfc3339(r.start_date),
      EndDate: rfc3339(r.end_date),
      Shared: r.share_token !== null && r.share_token !== undefined,
    };
  }
  return { ID, Name, Description, CreatedAt, UpdatedAt, guid, Meta, OwnerId, CategoryId: num(r.category_id), URL: r.url ?? null };
}

/** The entity object of a LINK_COLUMNS row: no meta to parse, no dates to format. */
export function linkObject(r: Row): EntityObject {
  return { ID: num(r.id), Name: r.name, Description: r.description };
}

/** CSV columns of flat exports (§14.6), read from entity objects. */
export const CSV_COLUMNS: Record<Entity, [string, string][]> = {
  resource: [
    ['id', 'ID'], ['name', 'Name'], ['description', 'Description'], ['content_type', 'ContentType'], ['file_size', 'FileSize'],
    ['width', 'Width'], ['height', 'Height'], ['created_at', 'CreatedAt'], ['updated_at', 'UpdatedAt'], ['owner_id', 'OwnerId'],
    ['category_id', 'ResourceCategoryId'], ['meta', 'Meta'],
  ],
  note: [
    ['id', 'ID'], ['name', 'Name'], ['description', 'Description'], ['created_at', 'CreatedAt'], ['updated_at', 'UpdatedAt'],
    ['owner_id', 'OwnerId'], ['note_type_id', 'NoteTypeId'], ['meta', 'Meta'],
  ],
  group: [
    ['id', 'ID'], ['name', 'Name'], ['description', 'Description'], ['created_at', 'CreatedAt'], ['updated_at', 'UpdatedAt'],
    ['owner_id', 'OwnerId'], ['category_id', 'CategoryId'], ['meta', 'Meta'],
  ],
};
