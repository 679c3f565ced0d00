// Saved MRQL queries (mrql.md §14.7): validated on save with placeholders unbound, revalidated
// on every run, `params` derived on every read.
import { notFound, badRequest } from '../../core/http/errors.js';
import { nowIso } from '../../core/db/values.js';
import type { EventBus } from '../../core/events/bus.js';
import type { Actor, Principal } from '../auth/principal.js';
import { withChange } from '../common/changes.js';
import { pageOf, PAGE_SIZE } from '../common/list.js';
import { MrqlError } from './errors.js';
import { parseQuery } from './parser.js';
import type { SavedMrqlRepository, SavedRow } from './repository.js';
import { listParams, validateQuery } from './validate.js';
import { rfc3339 } from './values.js';

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export function savedRecord(r: SavedRow) {
  let params: string[] = [];
  try {
    params = listParams(parseQuery(r.query));
  } catch {
    params = [];
  }
  return {
    id: r.id,
    name: r.name,
    query: r.query,
    description: r.description,
    createdAt: rfc3339(r.created_at),
    updatedAt: rfc3339(r.updated_at),
    ...(r.created_by_user_id !== null ? { createdByUserId: r.created_by_user_id } : {}),
    params,
  };
}

export type SavedRecord = ReturnType<typeof savedRecord>;

export class SavedMrqlQueries {
  constructor(
    private readonly repo: SavedMrqlRepository,
    private readonly bus: EventBus<Principal>,
  ) {}

  async find(id: number): Promise<SavedRow | undefined> {
    return this.repo.find(id);
  }

  async findByName(name: string): Promise<SavedRow | undefined> {
    return this.repo.findByName(name);
  }

  /** Lookup for run/explain/export: id first, then exact name (§14.7). */
  async lookup(id: number | undefined, name: string | undefined): Promise<SavedRow> {
    const byId = id !== undefined && id > 0 ? await this.find(id) : undefined;
    if (byId) return byId;
    if (name !== undefined && name !== '') {
      const byName = await this.findByName(name);
      if (byName) return byName;
    }
    if ((id === undefined || id <= 0) && (name === undefined || name === '')) throw badRequest('saved MRQL query id or name is required');
    throw notFound('saved MRQL query not found');
  }

  async list(page: number | undefined, all: boolean): Promise<SavedRow[]> {
    if (all) return this.repo.list(null);
    const p = pageOf(page, PAGE_SIZE);
    return this.repo.list({ limit: p.perPage, offset: p.offset });
  }

  private clean(name: string | undefined, query: string | undefined) {
    const n = (name ?? '').trim();
    if (n === '') throw badRequest('saved MRQL query name must be non-empty');
    if (Buffer.byteLength(n) > 1000) throw badRequest('saved MRQL query name must not exceed 1000 characters');
    if (FORBIDDEN.test(n)) throw badRequest('saved MRQL query name must not contain control or bidirectional override characters');
    const q = (query ?? '').trim();
    if (q === '') throw badRequest('saved MRQL query text must be non-empty');
    const parsed = reported(() => parseQuery(q), 'invalid MRQL syntax');
    reported(() => validateQuery(parsed), 'invalid MRQL query');
    return { name: n, query: q };
  }

  private async unique(name: string, except?: number): Promise<void> {
    const other = await this.findByName(name);
    if (other && other.id !== except) throw badRequest('a saved MRQL query with that name already exists');
  }

  async create(actor: Actor, input: { name?: string; query?: string; description?: string }): Promise<SavedRow> {
    const { name, query } = this.clean(input.name, input.query);
    await this.unique(name);
    return withChange(this.bus, actor, 'create', 'mrql_query', async () => {
      const now = nowIso();
      const row = await this.repo.insert({ name, query, description: input.description ?? '', created_at: now, updated_at: now, created_by_user_id: actor.principal.userId });
      return { id: row.id, name, result: row, after: savedRecord(row) };
    });
  }

  async update(actor: Actor, id: number | undefined, input: { name?: string; query?: string; description?: string }): Promise<SavedRow> {
    if (id === undefined || id <= 0) throw badRequest('saved MRQL query id is required');
    const before = await this.find(id);
    if (!before) throw notFound('saved MRQL query not found');
    const { name, query } = this.clean(input.name, input.query);
    await this.unique(name, id);
    return withChange(this.bus, actor, 'update', 'mrql_query', async () => {
      const row = await this.repo.update(id, { name, query, description: input.description ?? '', updated_at: nowIso() });
      return { id, name, result: row, before: savedRecord(before), after: savedRecord(row) };
    });
  }

  async delete(actor: Actor, id: number | undefined): Promise<{ id: number }> {
    if (id === undefined || id <= 0) throw badRequest('saved MRQL query id is required');
    const before = await this.find(id);
    if (!before) throw notFound('saved MRQL query not found');
    return withChange(this.bus, actor, 'delete', 'mrql_query', async () => {
      await this.repo.remove(id);
      return { id, name: before.name, result: { id }, before: savedRecord(before) };
    });
  }
}

/** Runs a compiler stage of a save; its MRQL error reads as a problem of the saved query. */
function reported<T>(stage: () => T, prefix: string): T {
  try {
    return stage();
  } catch (e) {
    throw e instanceof MrqlError ? e.reportedAs({ prefix }) : e;
  }
}
