// mah.db.mrql_query (library-plugins.md §11.6): an MRQL query run as the actor, with the scope
// options resolved to an owner group on top of the actor's own subtree confinement, and the result
// reshaped into the tables plugins read (flat items, aggregated rows, bucketed groups).
import { outsideAmbientTransaction } from '../../core/db/ambient.js';
import { HttpError } from '../../core/http/errors.js';
import { multi } from '../../core/lua/index.js';
import { MrqlError } from '../mrql/errors.js';
import type { EntityObject } from '../mrql/entities.js';
import type { MrqlResult } from '../mrql/types.js';
import { optId, options } from './db-args.js';
import type { DbKit, Row } from './db-kit.js';
import { mrqlCache } from './mrql-cache.js';

const ROOT_HOPS = 50;
const NO_TYPE = 'MRQL query must specify an entity type (e.g. type=resource)';

type EntityType = 'group' | 'resource' | 'note';

function item(type: string, o: EntityObject): Record<string, unknown> {
  const out: Record<string, unknown> = { id: o.ID, name: o.Name, description: o.Description ?? '', entity_type: type, createdAt: o.CreatedAt, updatedAt: o.UpdatedAt };
  if (o.OwnerId !== null && o.OwnerId !== undefined) out.ownerId = o.OwnerId;
  const meta = o.Meta as Record<string, unknown> | undefined;
  if (meta && Object.keys(meta).length) out.meta = meta;
  if (type === 'resource') {
    Object.assign(out, { contentType: o.ContentType, fileSize: o.FileSize, width: o.Width, height: o.Height, originalName: o.OriginalName, hash: o.Hash, category: o.ResourceCategoryId });
  } else if (type === 'note') {
    if (o.StartDate) out.startDate = o.StartDate;
    if (o.EndDate) out.endDate = o.EndDate;
  } else if (o.URL) out.url = o.URL;
  return out;
}

function itemsOf(result: MrqlResult & { resources?: EntityObject[]; notes?: EntityObject[]; groups?: unknown }, type: string): EntityObject[] {
  if (type === 'resource') return result.resources ?? [];
  if (type === 'note') return result.notes ?? [];
  return (result.groups as EntityObject[] | undefined) ?? [];
}

function reshape(result: MrqlResult): Record<string, unknown> {
  const type = result.entityType;
  if ('mode' in result && result.mode === 'aggregated') return { entity_type: type, mode: 'aggregated', rows: result.rows };
  if ('mode' in result && result.mode === 'bucketed') {
    return { entity_type: type, mode: 'bucketed', groups: result.buckets.map((b) => ({ key: b.key, items: b.items.map((o) => item(type, o)) })) };
  }
  return { entity_type: type, mode: 'flat', items: itemsOf(result, type).map((o) => item(type, o)) };
}

export function installMrql(k: DbKit, db: Record<string, unknown>): void {
  const { s } = k;
  /** The owner group of an entity as the actor sees it; null when it has none or is unseen. */
  const ownerOf = async (type: EntityType, id: number): Promise<number | null> => {
    const repo = type === 'group' ? s.groups.named.repo : type === 'note' ? s.notes.named.repo : s.resources.named.repo;
    const row = (await repo.find(id, k.vis())) as Row | undefined;
    return (row?.owner_id as number | null | undefined) ?? null;
  };
  /** The owner-group restriction of the scope options: undefined = none, null = nothing matches. */
  const contextScope = async (scope: string, id: number, type: EntityType): Promise<number | null | undefined> => {
    if (scope === 'global') return undefined;
    if (scope === 'entity') {
      if (id === 0) return undefined;
      return type === 'group' ? id : ownerOf(type, id);
    }
    if (id === 0) return null;
    if (scope === 'parent') return ownerOf(type, id);
    // root: walk the owner chain to the top group.
    let group: number | null = type === 'group' ? id : await ownerOf(type, id);
    for (let hop = 0; group !== null && hop < ROOT_HOPS; hop++) {
      const up = await ownerOf('group', group);
      if (up === null) break;
      group = up;
    }
    return group;
  };

  db.mrql_query = k.read(async (query, opts) => {
    const o = options(opts);
    const scopeId = optId(o.scope_entity_id, 'scope_entity_id') ?? 0;
    const scope = typeof o.scope === 'string' && ['entity', 'global', 'parent', 'root'].includes(o.scope) ? o.scope : 'entity';
    const type = (['group', 'resource', 'note'].includes(String(o.entity_type)) ? o.entity_type : 'group') as EntityType;
    const limit = typeof o.limit === 'number' && o.limit > 0 ? Math.trunc(o.limit) : 20;
    const buckets = typeof o.buckets === 'number' && o.buckets > 0 ? Math.trunc(o.buckets) : 5;
    const params = o.params && typeof o.params === 'object' ? Object.fromEntries(Object.entries(o.params).map(([key, v]) => [key, String(v)])) : undefined;
    try {
      const text = typeof query === 'string' ? query : '';
      const principal = k.actor().principal;
      // §11.6: reads outside any open mah.db.transaction block (see outsideAmbientTransaction).
      const owner = await outsideAmbientTransaction(() => contextScope(scope, scopeId, type));
      // The identity of a call (§11.6): query, resolved scope owner, limits, params and actor.
      const key = JSON.stringify([text, owner === undefined ? 'none' : owner, limit, buckets, params ?? null, principal.userId, principal.role, principal.scopeGroupId]);
      const cache = mrqlCache();
      const hit = cache?.get(key);
      if (hit !== undefined) return hit;
      const result = await outsideAmbientTransaction(() => s.mrql.execute(text, { limit, buckets, params, principal, contextScope: owner }));
      if (!['resource', 'note', 'group'].includes(result.entityType)) return multi(null, NO_TYPE);
      const shaped = reshape(result);
      cache?.set(key, shaped);
      return shaped;
    } catch (e) {
      if (e instanceof MrqlError) return multi(null, e.bare);
      if (e instanceof HttpError) return multi(null, e.message);
      throw e;
    }
  });
}
