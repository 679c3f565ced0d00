// mah.db writers (library-plugins.md §11.7, §11.8, §11.10): create / update (replace every field)
// / patch (overlay the given keys) / delete of notes, groups, tags and the three carriers, the
// association helpers and transactions. Each goes through the entity's service as the actor, so
// validation, scope, hooks and the audit log are those of the HTTP API.
import { currentLuaCall, LuaError, LuaFunctionRef, multi } from '../../core/lua/index.js';
import { can, type Actor } from '../auth/principal.js';
import type { CarrierInput, CarrierRow, CarrierService } from '../categories/service.js';
import type { GroupWrite } from '../groups/service.js';
import type { NoteWrite } from '../notes/service.js';
import { idList, optId, options, positiveId, text } from './db-args.js';
import { pluginTransaction } from './db-tx.js';
import { clearMrqlCache } from './mrql-cache.js';
import type { DbKit, Row } from './db-kit.js';
import { abortReason } from './mah.js';

const TRANSACTION_BUDGET_MS = 5 * 60_000;

type Mode = 'create' | 'update' | 'patch';
type Opts = Record<string, unknown>;

/**
 * One option key: for create and patch only what was given (patch keeps the stored value of a key
 * with the wrong type), for update the given value or `empty`.
 */
function field<T>(mode: Mode, given: T | undefined, empty: T): T | undefined {
  if (given !== undefined) return given;
  return mode === 'update' ? empty : undefined;
}

const NOTE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function noteDate(v: unknown): string | undefined {
  const s = text(v);
  if (s === undefined) return undefined;
  return NOTE_DATE.test(s) ? s : '';
}

function noteInput(mode: Mode, o: Opts): NoteWrite {
  return {
    Name: field(mode, text(o.name), ''),
    Description: field(mode, text(o.description), ''),
    Meta: field(mode, text(o.meta) || undefined, '{}'),
    StartDate: field(mode, noteDate(o.start_date), ''),
    EndDate: field(mode, noteDate(o.end_date), ''),
    OwnerId: field(mode, optId(o.owner_id, 'owner_id'), 0),
    NoteTypeId: field(mode, optId(o.note_type_id, 'note_type_id'), 0),
    Tags: field(mode, idList(o.tags, 'tags'), []),
    Groups: field(mode, idList(o.groups, 'groups'), []),
    Resources: field(mode, idList(o.resources, 'resources'), []),
  };
}

function groupInput(mode: Mode, o: Opts): GroupWrite {
  return {
    Name: field(mode, text(o.name), ''),
    Description: field(mode, text(o.description), ''),
    Meta: field(mode, text(o.meta) || undefined, '{}'),
    URL: field(mode, text(o.url), ''),
    OwnerId: field(mode, optId(o.owner_id, 'owner_id'), 0),
    CategoryId: field(mode, optId(o.category_id, 'category_id'), 0),
    Tags: field(mode, idList(o.tags, 'tags'), []),
    Groups: field(mode, idList(o.groups, 'groups'), []),
  };
}

/** Carrier option keys are column names; the service takes the API's field names. */
function carrierInput(service: CarrierService, mode: Mode, o: Opts): CarrierInput {
  const input: CarrierInput = { Name: field(mode, text(o.name), ''), Description: field(mode, text(o.description), '') };
  for (const [json, col] of Object.entries({ ...service.kind.slots, ...service.kind.texts })) input[json] = field(mode, text(o[col]), '');
  input.MetaSchema = field(mode, text(o.meta_schema), '');
  if (service.kind.entityType === 'note_type') input.SectionConfig = field(mode, text(o.section_config), '{}');
  return input;
}

const ROLE_REFUSED = 'your role does not have permission to perform this operation';
const ASSOCIATION_OPS = { add_tags: 'AddTagsToEntity', remove_tags: 'RemoveTagsFromEntity', add_groups: 'AddGroupsToEntity', remove_groups: 'RemoveGroupsFromEntity' };

export function installWrites(k: DbKit, db: Record<string, unknown>): void {
  const { s } = k;
  const noteResult = async (id: number) => {
    const r = (await s.notes.named.repo.find(id, k.vis())) as unknown as Row;
    return k.entity(r, r.note_type_id ? { note_type_id: r.note_type_id } : {});
  };
  const groupResult = async (id: number) => {
    const r = (await s.groups.named.repo.find(id, k.vis())) as unknown as Row;
    return k.entity(r, r.category_id ? { category_id: r.category_id } : {});
  };

  // Notes and groups: the same three writers over their service and input shape.
  const content = <I>(
    label: 'note' | 'group',
    input: (mode: Mode, o: Opts) => I,
    service: { create(a: Actor, i: I): Promise<unknown>; update(a: Actor, id: number, i: I): Promise<unknown> },
    result: (id: number) => Promise<Record<string, unknown>>,
  ) => {
    // The reference's wording for a missing name (§11.7, T-099).
    const nameMissing = (i: I, creating: boolean) => {
      const name = (i as { Name?: string }).Name;
      return (creating || name !== undefined) && (name ?? '').trim() === '';
    };
    db[`create_${label}`] = k.write(async (o) => {
      const i = input('create', options(o));
      if (nameMissing(i, true)) return multi(null, `${label} name needed`);
      const created = (await service.create(k.actor(), i)) as { ID: number };
      return result(created.ID);
    });
    for (const mode of ['update', 'patch'] as const) {
      db[`${mode}_${label}`] = k.write(async (id, o) => {
        const n = positiveId(id, 1, `${mode}_${label}`);
        const i = input(mode, options(o));
        if (nameMissing(i, false)) return multi(null, `${label} name needed`);
        await service.update(k.actor(), n, i);
        return result(n);
      });
    }
  };
  content('note', noteInput, s.notes, noteResult);
  content('group', groupInput, s.groups, groupResult);

  db.create_tag = k.write(async (o) => {
    const opts = options(o);
    const row = await s.tags.create(k.actor(), { Name: text(opts.name), Description: text(opts.description) }, true);
    return { id: row.id, name: row.name, description: row.description };
  });
  for (const mode of ['update', 'patch'] as const) {
    db[`${mode}_tag`] = k.write(async (id, o) => {
      const opts = options(o);
      const row = await s.tags.update(k.actor(), positiveId(id, 1, `${mode}_tag`), {
        Name: field(mode, text(opts.name), ''),
        Description: field(mode, text(opts.description), ''),
      });
      return { id: row.id, name: row.name, description: row.description };
    });
  }

  // Carriers: editor or admin only (§11.1), actor 0 always passes.
  const carrierWriters = (service: CarrierService, label: string) => {
    const allowed = (verb: string) => (can(k.actor().principal, 'editor') ? null : multi(null, `${verb} a ${service.kind.label}: ${ROLE_REFUSED}`));
    const result = async (id: number) => k.carrier(service, (await service.named.repo.find(id)) as CarrierRow);
    db[`create_${label}`] = k.write(async (o) => {
      const refused = allowed('creating');
      if (refused) return refused;
      const rec = (await service.create(k.actor(), carrierInput(service, 'create', options(o)))) as { ID: number };
      return result(rec.ID);
    });
    for (const mode of ['update', 'patch'] as const) {
      db[`${mode}_${label}`] = k.write(async (id, o) => {
        const n = positiveId(id, 1, `${mode}_${label}`);
        const refused = allowed('editing');
        if (refused) return refused;
        await service.update(k.actor(), n, carrierInput(service, mode, options(o)));
        return result(n);
      });
    }
    db[`delete_${label}`] = k.write(async (id) => {
      const n = positiveId(id, 1, `delete_${label}`);
      const refused = allowed('deleting');
      if (refused) return refused;
      await service.delete(k.actor(), n);
      return true;
    });
  };
  carrierWriters(s.categories, 'category');
  carrierWriters(s.resourceCategories, 'resource_category');
  carrierWriters(s.noteTypes, 'note_type');

  const deleter = (named: { delete(actor: Actor, id: number): Promise<unknown> }, fn: string) =>
    k.write(async (id) => {
      await named.delete(k.actor(), positiveId(id, 1, fn));
      return true;
    });
  db.delete_tag = deleter(s.tags.named, 'delete_tag');
  db.delete_note = deleter(s.notes.named, 'delete_note');
  db.delete_group = deleter(s.groups, 'delete_group');

  installAssociations(k, db);

  db.transaction = async (fn: unknown) => {
    if (!(fn instanceof LuaFunctionRef)) throw new Error("bad argument #1 to 'transaction' (function expected)");
    if (k.plugin.revoked) return multi(null, 'database writer not available');
    // The block would have to finish before the coroutine could yield, which the plugin's own
    // resume cannot wait for (§11.10).
    if (currentLuaCall()?.inCoroutine) return multi(null, 'mah.db.transaction cannot be called from a coroutine: run it from the entry point itself');
    try {
      // A nested call: it runs inside this entry point, under its deadline.
      await pluginTransaction(s.db, () => fn.call([], { entry: 'mah.db.transaction', budgetMs: TRANSACTION_BUDGET_MS }));
      clearMrqlCache();
      return true;
    } catch (e) {
      if (!(e instanceof LuaError)) return multi(null, (e as Error).message);
      // mah.abort inside the block rolls back and goes on aborting (§11.10).
      if (abortReason(e.luaMessage) !== null) throw e;
      return multi(null, e.luaMessage);
    }
  };
}

/** add/remove tags and groups, resources of a note (§11.8): the service update with the new lists. */
function installAssociations(k: DbKit, db: Record<string, unknown>): void {
  const { s } = k;
  const current = async (type: string, id: number, link: 'Tags' | 'Groups' | 'Resources' | 'Notes'): Promise<number[]> => {
    const rec = (type === 'note' ? await s.notes.read(k.vis(), id) : type === 'group' ? await s.groups.read(k.vis(), id) : await s.resources.read(k.vis(), id)) as unknown as Record<string, { ID: number }[] | null>;
    return (rec[link] ?? []).map((x) => x.ID);
  };
  const save = async (type: string, id: number, link: 'Tags' | 'Groups' | 'Resources', ids: number[]) => {
    if (type === 'note') await s.notes.update(k.actor(), id, { [link]: ids });
    else if (type === 'group') await s.groups.update(k.actor(), id, { [link]: ids });
    else await s.resources.edit(k.actor(), id, { [link]: ids });
  };
  const change = (fn: keyof typeof ASSOCIATION_OPS, link: 'Tags' | 'Groups', types: string[], adding: boolean) =>
    k.write(async (type, id, list) => {
      const t = String(type ?? '');
      const n = positiveId(id, 2, fn);
      const ids = idList(list ?? [], 'ids') ?? [];
      if (!types.includes(t)) return multi(null, `unsupported entity type for ${ASSOCIATION_OPS[fn]}: ${t}`);
      if (ids.length === 0) return true;
      const have = await current(t, n, link);
      const next = adding ? [...new Set([...have, ...ids])] : have.filter((x) => !ids.includes(x));
      await save(t, n, link, next);
      return true;
    });
  db.add_tags = change('add_tags', 'Tags', ['resource', 'note', 'group'], true);
  db.remove_tags = change('remove_tags', 'Tags', ['resource', 'note', 'group'], false);
  db.add_groups = change('add_groups', 'Groups', ['resource', 'note'], true);
  db.remove_groups = change('remove_groups', 'Groups', ['resource', 'note'], false);
  const noteResources = (fn: string, adding: boolean) =>
    k.write(async (id, list) => {
      const n = positiveId(id, 1, fn);
      const ids = idList(list ?? [], 'resource ids') ?? [];
      if (ids.length === 0) return true;
      const have = await current('note', n, 'Resources');
      await save('note', n, 'Resources', adding ? [...new Set([...have, ...ids])] : have.filter((x) => !ids.includes(x)));
      return true;
    });
  db.add_resources_to_note = noteResources('add_resources_to_note', true);
  db.remove_resources_from_note = noteResources('remove_resources_from_note', false);
}
