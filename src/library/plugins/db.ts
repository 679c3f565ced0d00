// mah.db (library-plugins.md §11): every call runs as the invocation's actor through the same
// services (and so the same hooks, audit entries, scope and role rules) as that user's own HTTP
// requests; reads are confined to the actor's subtree (§26). This file installs the parts
// (the shared kit is db-kit.ts) and holds the readers of notes, groups, tags and carriers; writes,
// resources, MRQL and transactions live in db-write.ts, db-resources.ts and db-mrql.ts.
import type { CarrierRow, CarrierService } from '../categories/service.js';
import { clampLimit, clampOffset, idFilter, idsFilter, iso, options, positiveId, text } from './db-args.js';
import { installCreation } from './db-create.js';
import { installMrql } from './db-mrql.js';
import { installRelations } from './db-relations.js';
import { installResources } from './db-resources.js';
import { installWrites } from './db-write.js';
import { dbKit, type DbKit, type DbServices, type Row } from './db-kit.js';
import type { MahPlugin } from './mah.js';

export type { DbServices };

/** The name of a carrier row, or undefined. */
async function carrierName(service: CarrierService, id: number | null | undefined): Promise<string | undefined> {
  if (!id) return undefined;
  return ((await service.named.repo.find(id)) as CarrierRow | undefined)?.name;
}

type Lister = { page(input: never, size: number, offset: number, ...seen: never[]): Promise<unknown[]>; count(input: never, ...seen: never[]): Promise<number> };

function installReads(k: DbKit, db: Record<string, unknown>): void {
  const { s } = k;
  db.get_tag = k.read(async (id) => {
    const r = await s.tags.named.repo.find(positiveId(id, 1, 'get_tag'));
    return r ? { id: r.id, name: r.name } : null;
  });
  db.get_note = k.read(async (id) => {
    const r = (await s.notes.named.repo.find(positiveId(id, 1, 'get_note'), k.vis())) as Row | undefined;
    if (!r) return null;
    const type = await carrierName(s.noteTypes, r.note_type_id as number | null);
    return k.entity(r, { ...(type !== undefined ? { note_type: type } : {}), ...(await k.tagStubs('note', r.id)) });
  });
  db.get_group = k.read(async (id) => {
    const r = (await s.groups.named.repo.find(positiveId(id, 1, 'get_group'), k.vis())) as Row | undefined;
    if (!r) return null;
    const category = await carrierName(s.categories, r.category_id as number | null);
    return k.entity(r, { ...(category !== undefined ? { category } : {}), ...(await k.tagStubs('group', r.id)) });
  });
  const carrierGetter = (service: CarrierService, fn: string) =>
    k.read(async (id) => {
      const r = (await service.named.repo.find(positiveId(id, 1, fn))) as CarrierRow | undefined;
      return r ? k.carrier(service, r) : null;
    });
  db.get_category = carrierGetter(s.categories, 'get_category');
  db.get_note_type = carrierGetter(s.noteTypes, 'get_note_type');
  db.get_resource_category = carrierGetter(s.resourceCategories, 'get_resource_category');

  /** Filter table → list input of the service; confined lists get the actor's visibility. */
  const lister = (repo: Lister, input: (f: Record<string, unknown>) => Record<string, unknown>, shape: (r: Row) => Record<string, unknown>, confined: boolean) => ({
    page: k.read(async (f) => {
      const filter = options(f);
      const sortBy = Array.isArray(filter.sort_by) ? filter.sort_by.map(String) : undefined;
      const seen = (confined ? [k.vis()] : []) as never[];
      const rows = (await repo.page({ ...input(filter), SortBy: sortBy } as never, clampLimit(filter.limit), clampOffset(filter.offset), ...seen)) as Row[];
      return rows.map(shape);
    }),
    count: k.read(async (f) => {
      const seen = (confined ? [k.vis()] : []) as never[];
      return repo.count(input(options(f)) as never, ...seen);
    }),
  });
  const named = (f: Record<string, unknown>) => ({ Name: text(f.name) || undefined, Description: text(f.description) || undefined });
  const dated = (r: Row) => ({ ...k.entity(r), created_at: iso(r.created_at), updated_at: iso(r.updated_at) });
  const carrierShape = (service: CarrierService) => (r: Row) => k.carrier(service, r as unknown as CarrierRow);

  db.list_tags = lister(s.tags.named.repo as never, named, (r) => ({ id: r.id, name: r.name, description: r.description }), false).page;
  db.list_categories = lister(s.categories.named.repo as never, named, carrierShape(s.categories), false).page;
  db.list_note_types = lister(s.noteTypes.named.repo as never, named, carrierShape(s.noteTypes), false).page;
  db.list_resource_categories = lister(s.resourceCategories.named.repo as never, named, carrierShape(s.resourceCategories), false).page;
  const notes = lister(
    s.notes.named.repo as never,
    (f) => ({ Name: text(f.name) || undefined, OwnerId: idFilter(f.owner_id), NoteTypeId: idFilter(f.note_type_id), Tags: idsFilter(f.tags), Groups: idsFilter(f.groups) }),
    dated,
    true,
  );
  db.query_notes = notes.page;
  db.count_notes = notes.count;
  const groups = lister(
    s.groups.named.repo as never,
    (f) => ({ Name: text(f.name) || undefined, OwnerId: idFilter(f.owner_id), CategoryId: idFilter(f.category_id), Tags: idsFilter(f.tags) }),
    dated,
    true,
  );
  db.query_groups = groups.page;
  db.count_groups = groups.count;
}

export function installDb(plugin: MahPlugin, mah: Record<string, unknown>, s: DbServices): void {
  const k = dbKit(plugin, s);
  if (!k.has('db:read') && !k.has('db:write')) return;
  const db: Record<string, unknown> = {};
  if (k.has('db:read')) {
    installReads(k, db);
    installResources(k, db, 'read', s.files);
    installMrql(k, db);
  }
  if (k.has('db:write')) {
    installWrites(k, db);
    installResources(k, db, 'write');
    installRelations(k, db);
    installCreation(k, db);
  }
  mah.db = db;
}
