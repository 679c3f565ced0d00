// What the parts of mah.db (library-plugins.md §11) share: the services they call, the actor of
// the invocation and its visibility, the reader/writer wrappers that turn refusals into
// `nil, err`, and the entity shapes of §11.3.
import { AsyncLocalStorage } from 'node:async_hooks';
import { bool } from '../../core/db/values.js';
import { HttpError } from '../../core/http/errors.js';
import { multi } from '../../core/lua/index.js';
import type { Actor, Principal } from '../auth/principal.js';
import { visibilityOf, type Visibility } from '../auth/visibility.js';
import type { CarrierRow, CarrierService } from '../categories/service.js';
import type { GroupService } from '../groups/service.js';
import type { MrqlService } from '../mrql/service.js';
import type { NoteService } from '../notes/service.js';
import type { ResourceService } from '../resources/service.js';
import type { Filesystems } from '../resources/storage.js';
import type { LibraryDb } from '../schema/database.js';
import type { TagService } from '../tags/service.js';
import type { RuntimeSettings } from '../admin/settings.js';
import type { RelationService } from '../relations/service.js';
import type { RelationTypeService } from '../relations/types.js';
import type { IngestService } from '../resources/ingest.js';
import type { VersionService } from '../versions/service.js';
import type { CapabilityId } from './capabilities.js';
import { currentInvocation } from './invocation.js';
import { clearMrqlCache } from './mrql-cache.js';
import type { MahPlugin } from './mah.js';

/** What mah.db needs to know of an account: whether it still exists and is enabled. */
export interface AccountState {
  role: string;
  scope_group_id: number | null;
  disabled: unknown;
}

/** What the relation writers use (db-relations.ts). */
export interface RelationServices {
  relations: RelationService;
  relationTypes: RelationTypeService;
}

/** What the resource-creating writers use (db-create.ts). */
export interface CreationServices {
  ingest: IngestService;
  versions: VersionService;
  settings: RuntimeSettings;
  log: (message: string) => void;
}

export interface DbServices extends RelationServices, CreationServices {
  db: LibraryDb;
  /** The actor's account now; undefined once deleted. */
  account: (userId: number) => Promise<AccountState | undefined>;
  tags: TagService;
  notes: NoteService;
  groups: GroupService;
  categories: CarrierService;
  resourceCategories: CarrierService;
  noteTypes: CarrierService;
  resources: ResourceService;
  /** Where resource files are stored (get_resource_data). */
  files: Filesystems;
  mrql: MrqlService;
  /** The root account actor 0 writes as. */
  root: () => Principal;
}

export interface Row {
  id: number;
  name: string;
  description: string;
  meta?: string;
  owner_id?: number | null;
  created_at?: string;
  updated_at?: string;
  [k: string]: unknown;
}

type HostFn = (...a: unknown[]) => Promise<unknown>;

/** What the parts of mah.db share. */
export interface DbKit {
  plugin: MahPlugin;
  s: DbServices;
  has(c: CapabilityId): boolean;
  actor(): Actor;
  vis(): Visibility;
  /** A reader: nil, "database not available" once revoked; service refusals as nil, err. */
  read(fn: HostFn): HostFn;
  /** A writer: nil, "database writer not available" once revoked; refusals as nil, err. */
  write(fn: HostFn): HostFn;
  /** Runs a host function as the actor's account stands now (read and write do this too). */
  live(fn: HostFn): HostFn;
  /** id, name, description, meta and owner_id of a content row. */
  entity(r: Row, extra?: Record<string, unknown>): Record<string, unknown>;
  tagStubs(kind: 'note' | 'group' | 'resource', id: number): Promise<Record<string, unknown>>;
  /** A carrier (category, resource category, note type) as §11.3 shows it. */
  carrier(service: CarrierService, r: CarrierRow): Record<string, unknown>;
}

/** The deny-all actor (§11.1): a guest without a scope group sees no group, resource or note. */
function denyAll(p: Principal): Principal {
  return { userId: p.userId, username: p.username, role: 'guest', scopeGroupId: null, superUser: false };
}

/** The principal each mah.db call of the current async context acts as. */
const liveActors = new AsyncLocalStorage<Principal | null>();

/**
 * The invocation's actor as its account stands at this call: a deleted or disabled account, or
 * one that cannot be read, acts with the deny-all subtree (§11.1). Read on every call (one
 * primary-key lookup) so a long job notices an account disabled while it runs.
 */
async function liveActor(s: DbServices): Promise<Principal | null> {
  const actor = currentInvocation().actor;
  if (actor === null) return null;
  try {
    const row = await s.account(actor.userId);
    return !row || bool(row.disabled) ? denyAll(actor) : actor;
  } catch (e) {
    s.log(`plugins: the account of user ${actor.userId} could not be read, acting with the deny-all scope: ${(e as Error).message}`);
    return denyAll(actor);
  }
}

function asLive(s: DbServices, fn: HostFn): HostFn {
  return async (...args) => {
    const principal = await liveActor(s);
    return liveActors.run(principal, () => fn(...args));
  };
}

function guarded(s: DbServices, plugin: MahPlugin, unavailable: string, fn: HostFn, writes: boolean): HostFn {
  return async (...args) => {
    if (plugin.revoked) return multi(null, unavailable);
    try {
      return await asLive(s, fn)(...args);
    } catch (e) {
      if (e instanceof HttpError) return multi(null, e.message);
      throw e;
    } finally {
      // Every write, successful or failed, invalidates the entry point's MRQL cache (§11.2).
      if (writes) clearMrqlCache();
    }
  };
}

export function dbKit(plugin: MahPlugin, s: DbServices): DbKit {
  const actor = (): Actor => {
    const inv = currentInvocation();
    const live = liveActors.getStore();
    // The origin names the plugin, so its writes are attributed to it in the audit log.
    return { principal: (live === undefined ? inv.actor : live) ?? s.root(), origin: { path: '', userAgent: '', ip: '', ...inv.origin, plugin: plugin.name } };
  };
  return {
    plugin,
    s,
    has: (c) => plugin.capabilities.includes(c),
    actor,
    vis: () => visibilityOf(actor().principal),
    read: (fn) => guarded(s, plugin, 'database not available', fn, false),
    write: (fn) => guarded(s, plugin, 'database writer not available', fn, true),
    live: (fn) => asLive(s, fn),
    entity: (r, extra = {}) => {
      const out: Record<string, unknown> = { id: r.id, name: r.name, description: r.description ?? '', ...extra };
      if (r.meta !== undefined) out.meta = r.meta;
      if (r.owner_id) out.owner_id = r.owner_id;
      return out;
    },
    tagStubs: async (kind, id) => {
      const tags = (await s.tags.tagsOf(kind, [id])).get(id) ?? [];
      return tags.length ? { tags: tags.map((t) => ({ id: t.id, name: t.name })) } : {};
    },
    carrier: (service, r) => {
      const row = r as unknown as Record<string, unknown>;
      const out: Record<string, unknown> = { id: r.id, name: r.name, description: r.description ?? '' };
      for (const col of [...Object.values(service.kind.slots), ...Object.values(service.kind.texts)]) out[col] = String(row[col] ?? '');
      out.meta_schema = String(row.meta_schema ?? '');
      if (service.kind.entityType === 'note_type') out.section_config = String(row.section_config ?? '{}');
      return out;
    },
  };
}

