// Resources in mah.db (library-plugins.md §11.3–§11.5, §11.7): the getter, listing, counting and
// file data as the actor sees them, and update / patch / delete through the resource service.
import { stat, readFile } from 'node:fs/promises';
import { multi } from '../../core/lua/index.js';
import { checkedPath } from '../../core/storage/resolver.js';
import type { ResourceWrite } from '../resources/ingest.js';
import type { ResourceRow } from '../resources/records.js';
import type { Filesystems } from '../resources/storage.js';
import { clampLimit, clampOffset, idFilter, idList, idsFilter, iso, optId, options, positiveId, text } from './db-args.js';
import { inPluginTransaction, refusedInTransaction } from './db-tx.js';
import type { DbKit, Row } from './db-kit.js';

export const RESOURCE_DATA_MAX = 52_428_800;

type Mode = 'update' | 'patch';

function shape(k: DbKit, r: ResourceRow): Record<string, unknown> {
  return k.entity(r as unknown as Row, { content_type: r.content_type, original_filename: r.original_name, hash: r.hash });
}

function resourceInput(mode: Mode, o: Record<string, unknown>): ResourceWrite {
  const pick = <T>(given: T | undefined, empty: T) => (given !== undefined ? given : mode === 'update' ? empty : undefined);
  const size = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
  const meta = text(o.meta);
  return {
    Name: pick(text(o.name), ''),
    Description: pick(text(o.description), ''),
    // An empty meta leaves the stored one (§11.7); "{}" empties it.
    Meta: meta ? meta : undefined,
    OwnerId: pick(optId(o.owner_id, 'owner_id'), 0),
    Groups: pick(idList(o.groups, 'groups'), []),
    Tags: pick(idList(o.tags, 'tags'), []),
    Notes: pick(idList(o.notes, 'notes'), []),
    Category: pick(text(o.category), ''),
    ContentCategory: pick(text(o.content_category), ''),
    ResourceCategoryId: optId(o.resource_category_id, 'resource_category_id') || undefined,
    OriginalName: pick(text(o.original_filename), ''),
    OriginalLocation: pick(text(o.original_location), ''),
    Width: size(o.width),
    Height: size(o.height),
    SeriesId: optId(o.series_id, 'series_id') || undefined,
    SeriesSlug: mode === 'update' ? text(o.series_slug) : undefined,
  };
}

export function installResources(k: DbKit, db: Record<string, unknown>, part: 'read' | 'write', files?: Filesystems): void {
  const { s } = k;
  if (part === 'read') {
    db.get_resource = k.read(async (id) => {
      const row = await s.resources.find(k.vis(), positiveId(id, 1, 'get_resource'));
      if (!row) return null;
      const rec = await s.resources.read(k.vis(), row.id);
      const stubs = (list: { ID: number; Name: string }[] | null) => (list ?? []).map((x) => ({ id: x.ID, name: x.Name }));
      const out = k.entity(row as unknown as Row, {
        content_type: row.content_type,
        original_filename: row.original_name,
        hash: row.hash,
        width: row.width ?? 0,
        height: row.height ?? 0,
        file_size: Number(row.file_size),
      });
      for (const [key, list] of [['tags', rec.Tags], ['groups', rec.Groups], ['notes', rec.Notes]] as const) {
        const items = stubs(list as { ID: number; Name: string }[] | null);
        if (items.length) out[key] = items;
      }
      return out;
    });
    const filterOf = (f: Record<string, unknown>) =>
      s.resources.filterOf({
        Name: text(f.name) || undefined,
        ContentType: text(f.content_type) || undefined,
        OwnerId: idFilter(f.owner_id),
        ResourceCategoryId: idFilter(f.resource_category_id),
        Tags: idsFilter(f.tags),
        Groups: idsFilter(f.groups),
        SortBy: Array.isArray(f.sort_by) ? f.sort_by.map(String) : undefined,
      } as never);
    db.query_resources = k.read(async (f) => {
      const filter = options(f);
      const rows = await s.resources.named.repo.page(filterOf(filter), clampLimit(filter.limit), clampOffset(filter.offset), k.vis());
      return rows.map((r) => ({ ...shape(k, r), meta: r.meta, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }));
    });
    db.count_resources = k.read(async (f) => s.resources.named.repo.count(filterOf(options(f)), k.vis()));
    db.get_resource_data = k.live(async (id: unknown) => {
      const n = positiveId(id, 1, 'get_resource_data');
      const fail = (why: string) => multi(null, null, why);
      if (k.plugin.revoked) return fail('database not available');
      if (inPluginTransaction()) return fail(refusedInTransaction('mah.db.get_resource_data', 'reading a file would hold the write lock across file I/O'));
      const row = await s.resources.find(k.vis(), n);
      if (!row) return fail(`resource ${n} not found`);
      if (!files) return fail('storage not available');
      let path: string;
      try {
        path = await checkedPath(files.get(row.storage_location).root, row.location, { allowPrivate: true });
      } catch {
        return fail('the stored file is missing');
      }
      if ((await stat(path)).size > RESOURCE_DATA_MAX) return fail(`file too large (max ${RESOURCE_DATA_MAX} bytes)`);
      return multi((await readFile(path)).toString('base64'), row.content_type);
    });
    return;
  }
  for (const mode of ['update', 'patch'] as const) {
    db[`${mode}_resource`] = k.write(async (id, o) => {
      const n = positiveId(id, 1, `${mode}_resource`);
      await s.resources.edit(k.actor(), n, resourceInput(mode, options(o)));
      return shape(k, (await s.resources.find(k.vis(), n))!);
    });
  }
  db.delete_resource = k.write(async (id) => {
    const n = positiveId(id, 1, 'delete_resource');
    if (inPluginTransaction()) return multi(null, refusedInTransaction('mah.db.delete_resource', 'removing the stored file cannot be rolled back'));
    await s.resources.delete(k.actor(), n);
    return true;
  });
}
