// mah.db (library-plugins.md §11), the part this host implements so far: single-entity getters,
// listings, and creating and deleting notes, groups, tags and categories. Every call runs as the
// invocation's actor through the same services (and so the same hooks, audit entries and role
// rules) as that user's own HTTP requests.
import { HttpError } from '../../core/http/errors.js';
import { multi } from '../../core/lua/index.js';
import { can, type Actor, type Principal } from '../auth/principal.js';
import { visibilityOf } from '../auth/visibility.js';
import type { CarrierService } from '../categories/service.js';
import type { GroupService } from '../groups/service.js';
import type { NoteService } from '../notes/service.js';
import type { TagService } from '../tags/service.js';
import { currentInvocation } from './invocation.js';
import type { CapabilityId } from './capabilities.js';
import type { MahPlugin } from './mah.js';

export interface DbServices {
  tags: TagService;
  notes: NoteService;
  groups: GroupService;
  categories: CarrierService;
  /** The root account actor 0 writes as. */
  root: () => Principal;
}

const MAX_ID = Number.MAX_SAFE_INTEGER;

function positiveId(v: unknown, n: number, fn: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID) {
    throw new Error(`bad argument #${n} to '${fn}' (entity id must be a positive whole number, got ${v === null || v === undefined ? 'nil' : String(v)})`);
  }
  return v;
}

function idList(v: unknown, key: string): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return [];
  if (!Array.isArray(v)) throw new Error(`${key} must be an array of ids`);
  for (const x of v) if (typeof x !== 'number' || !Number.isInteger(x) || x < 1) throw new Error(`${key}: entity ids must be positive whole numbers`);
  return v as number[];
}

function optId(v: unknown, key: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`${key} must be a whole number, got ${String(v)}`);
  return v;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

const iso = (v: unknown) => (typeof v === 'string' ? v.replace(/\.\d{3}Z$/, 'Z') : v);

function clampLimit(v: unknown): number {
  const n = typeof v === 'number' ? Math.trunc(v) : 0;
  return n <= 0 ? 20 : Math.min(100, n);
}

function clampOffset(v: unknown): number {
  const n = typeof v === 'number' ? Math.trunc(v) : 0;
  return Math.max(0, Math.min(10_000, n));
}

interface Row {
  id: number;
  name: string;
  description: string;
  meta?: string;
  owner_id?: number | null;
  created_at?: string;
  updated_at?: string;
  [k: string]: unknown;
}

export function installDb(plugin: MahPlugin, mah: Record<string, unknown>, s: DbServices): void {
  const has = (c: CapabilityId) => plugin.capabilities.includes(c);
  if (!has('db:read') && !has('db:write')) return;
  const actor = (): Actor => {
    const inv = currentInvocation();
    return { principal: inv.actor ?? s.root(), origin: inv.origin };
  };
  /** A reader: nil, "database not available" once revoked; failures as nil, err. */
  const read = (fn: (...a: unknown[]) => Promise<unknown>) => async (...args: unknown[]) => {
    if (plugin.revoked) return multi(null, 'database not available');
    try {
      return await fn(...args);
    } catch (e) {
      if (e instanceof HttpError) return multi(null, e.message);
      throw e;
    }
  };
  const write = (fn: (...a: unknown[]) => Promise<unknown>) => async (...args: unknown[]) => {
    if (plugin.revoked) return multi(null, 'database writer not available');
    try {
      return await fn(...args);
    } catch (e) {
      if (e instanceof HttpError) return multi(null, e.message);
      throw e;
    }
  };
  const entity = (r: Row, extra: Record<string, unknown> = {}) => {
    const out: Record<string, unknown> = { id: r.id, name: r.name, description: r.description ?? '', ...extra };
    if (r.meta !== undefined) out.meta = r.meta;
    if (r.owner_id) out.owner_id = r.owner_id;
    return out;
  };
  const tagStubs = async (kind: 'note' | 'group' | 'resource', id: number) => {
    const tags = (await s.tags.tagsOf(kind, [id])).get(id) ?? [];
    return tags.length ? { tags: tags.map((t) => ({ id: t.id, name: t.name })) } : {};
  };

  const db: Record<string, unknown> = {};
  if (has('db:read')) {
    db.get_tag = read(async (id) => {
      const r = await s.tags.named.repo.find(positiveId(id, 1, 'get_tag'));
      return r ? { id: r.id, name: r.name } : null;
    });
    db.get_note = read(async (id) => {
      const r = (await s.notes.named.repo.find(positiveId(id, 1, 'get_note'), visibilityOf(actor().principal))) as Row | undefined;
      return r ? entity(r, await tagStubs('note', r.id)) : null;
    });
    db.get_group = read(async (id) => {
      const r = (await s.groups.named.repo.find(positiveId(id, 1, 'get_group'), visibilityOf(actor().principal))) as Row | undefined;
      return r ? entity(r, await tagStubs('group', r.id)) : null;
    });
    db.get_category = read(async (id) => {
      const r = (await s.categories.named.repo.find(positiveId(id, 1, 'get_category'))) as Row | undefined;
      return r ? { id: r.id, name: r.name, description: r.description } : null;
    });
    const lister = (named: { repo: { page(input: never, size: number, offset: number): Promise<unknown[]> } }, shape: (r: Row) => Record<string, unknown>) =>
      read(async (f) => {
        const filter = (f ?? {}) as Record<string, unknown>;
        const input = { Name: text(filter.name), Description: text(filter.description), SortBy: Array.isArray(filter.sort_by) ? filter.sort_by.map(String) : undefined } as never;
        const rows = (await named.repo.page(input, clampLimit(filter.limit), clampOffset(filter.offset))) as Row[];
        return rows.map(shape);
      });
    db.list_tags = lister(s.tags.named as never, (r) => ({ id: r.id, name: r.name, description: r.description }));
    const dated = (r: Row) => ({ ...entity(r), created_at: iso(r.created_at), updated_at: iso(r.updated_at) });
    db.query_notes = lister(s.notes.named as never, dated);
    db.query_groups = lister(s.groups.named as never, dated);
  }
  if (has('db:write')) {
    db.create_tag = write(async (o) => {
      const opts = (o ?? {}) as Record<string, unknown>;
      const row = await s.tags.create(actor(), { Name: text(opts.name), Description: text(opts.description) }, true);
      return { id: row.id, name: row.name, description: row.description };
    });
    db.create_note = write(async (o) => {
      const opts = (o ?? {}) as Record<string, unknown>;
      const created = (await s.notes.create(actor(), {
        Name: text(opts.name),
        Description: text(opts.description),
        Meta: text(opts.meta) || undefined,
        OwnerId: optId(opts.owner_id, 'owner_id'),
        NoteTypeId: optId(opts.note_type_id, 'note_type_id'),
        Tags: idList(opts.tags, 'tags'),
        Groups: idList(opts.groups, 'groups'),
        Resources: idList(opts.resources, 'resources'),
      })) as { ID: number };
      const r = (await s.notes.named.repo.find(created.ID, visibilityOf(actor().principal))) as unknown as Row;
      return entity(r, r.note_type_id ? { note_type_id: r.note_type_id } : {});
    });
    db.create_group = write(async (o) => {
      const opts = (o ?? {}) as Record<string, unknown>;
      const created = (await s.groups.create(actor(), {
        Name: text(opts.name),
        Description: text(opts.description),
        Meta: text(opts.meta) || undefined,
        URL: text(opts.url),
        OwnerId: optId(opts.owner_id, 'owner_id'),
        CategoryId: optId(opts.category_id, 'category_id'),
        Tags: idList(opts.tags, 'tags'),
        Groups: idList(opts.groups, 'groups'),
      })) as { ID: number };
      const r = (await s.groups.named.repo.find(created.ID, visibilityOf(actor().principal))) as unknown as Row;
      return entity(r, r.category_id ? { category_id: r.category_id } : {});
    });
    db.create_category = write(async (o) => {
      const a = actor();
      if (!can(a.principal, 'editor')) return multi(null, 'creating a category: your role does not have permission to perform this operation');
      const opts = (o ?? {}) as Record<string, unknown>;
      const rec = (await s.categories.create(a, { Name: text(opts.name), Description: text(opts.description) } as never)) as { ID: number };
      const r = (await s.categories.named.repo.find(rec.ID)) as unknown as Row;
      return { id: r.id, name: r.name, description: r.description };
    });
    const deleter = (named: { delete(actor: Actor, id: number): Promise<unknown> }, fn: string) =>
      write(async (id) => {
        await named.delete(actor(), positiveId(id, 1, fn));
        return true;
      });
    db.delete_tag = deleter(s.tags.named, 'delete_tag');
    db.delete_note = deleter(s.notes.named, 'delete_note');
    db.delete_group = deleter(s.groups, 'delete_group');
  }
  mah.db = db;
}
