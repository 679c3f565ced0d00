// Saved searches (contract: Saved searches): per-account named list URLs. Ownership comes from
// the request only; another account's search answers 404 exactly like a missing one.
import { nowIso } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { SavedSearchRepository, SavedSearchRow } from './repository.js';
import { isKnownFamily, normaliseSearchUrl, FAMILIES } from './url.js';

const MAX_NAME_BYTES = 200;

export function savedSearchRecord(row: SavedSearchRow) {
  return { id: row.id, name: row.name, family: row.family, url: row.url, layout: row.layout, createdAt: row.created_at, updatedAt: row.updated_at };
}
export type SavedSearchRecord = ReturnType<typeof savedSearchRecord>;

function validName(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('name is required');
  const name = raw.trim();
  if (name === '') throw badRequest('name is required');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw badRequest(`name must be at most ${MAX_NAME_BYTES} bytes`);
  return name;
}

function urlText(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('url is required');
  return raw;
}

export class SavedSearchService {
  constructor(private readonly repo: SavedSearchRepository) {}

  async list(userId: number, family: string | undefined): Promise<SavedSearchRecord[]> {
    const f = family === undefined || family === '' ? null : family;
    if (f !== null && !isKnownFamily(f)) throw badRequest(`unknown family "${f}": expected one of ${FAMILIES.join(', ')}`);
    return (await this.repo.list(userId, f)).map(savedSearchRecord);
  }

  async create(userId: number, input: { name?: unknown; url?: unknown }): Promise<SavedSearchRecord> {
    const name = validName(input.name);
    const target = normaliseSearchUrl(urlText(input.url));
    const now = nowIso();
    const row = await this.repo.insert({ user_id: userId, name, family: target.family, layout: target.layout, url: target.url, created_at: now, updated_at: now });
    return savedSearchRecord(row);
  }

  private async requireOwned(id: number, userId: number): Promise<SavedSearchRow> {
    const row = await this.repo.findOwned(id, userId);
    if (!row) throw notFound('saved search not found');
    return row;
  }

  async update(userId: number, id: number, input: { name?: unknown; url?: unknown }): Promise<SavedSearchRecord> {
    const before = await this.requireOwned(id, userId);
    if (input.name === undefined && input.url === undefined) throw badRequest('send name and/or url');
    const name = input.name === undefined ? undefined : validName(input.name);
    const target = input.url === undefined ? undefined : normaliseSearchUrl(urlText(input.url));
    if (target && target.family !== before.family) {
      throw badRequest(`url must stay in the "${before.family}" family (it points at ${target.family})`);
    }
    await this.repo.updateOwned(id, userId, {
      updated_at: nowIso(),
      ...(name !== undefined ? { name } : {}),
      ...(target ? { url: target.url, layout: target.layout } : {}),
    });
    return savedSearchRecord(await this.requireOwned(id, userId));
  }

  async delete(userId: number, id: number): Promise<void> {
    if (!(await this.repo.removeOwned(id, userId))) throw notFound('saved search not found');
  }
}
