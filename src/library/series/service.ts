// Series (contract: Series; companion §2.8, §3.11): ordered resource sets sharing metadata.
// Deleting a series keeps each member's effective meta and clears the membership.
import { nowIso, parseJson } from '../../core/db/values.js';
import { conflict } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { rowStamp, withChange } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { SeriesListFilter, SeriesRepository, SeriesRow } from './repository.js';

export type { SeriesRow };
type Obj = Record<string, unknown>;

export function seriesRecord(row: SeriesRow) {
  return { ID: row.id, CreatedAt: row.created_at, UpdatedAt: row.updated_at, Name: row.name, Slug: row.slug, Meta: parseJson<Obj>(row.meta, {}) };
}

export class SeriesService {
  readonly named: NamedEntities<'series', SeriesListFilter>;

  constructor(
    private readonly repo: SeriesRepository,
    private readonly deps: NamedDeps,
  ) {
    this.named = new NamedEntities(repo, { entityType: 'series', label: 'series', uniqueName: false }, deps);
  }

  private async checkSlug(slug: string): Promise<void> {
    if (await this.repo.findBySlug(slug)) throw conflict(`a series with the slug "${slug}" already exists`);
  }

  async create(actor: Actor, input: { Name?: string; Slug?: string }): Promise<SeriesRow> {
    const name = validName(input.Name);
    const slug = input.Slug?.trim() ? validName(input.Slug, 'Slug') : name;
    await this.checkSlug(slug);
    return withChange(this.deps.bus, actor, 'create', 'series', async () => {
      const row = await this.repo.insert({ ...rowStamp(actor), name, slug, meta: '{}' });
      return { id: row.id, name, after: row, result: row };
    });
  }

  async update(actor: Actor, id: number | undefined, input: { Name?: string; Meta?: string }): Promise<SeriesRow> {
    const before = await this.named.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    return withChange(this.deps.bus, actor, 'update', 'series', async () => {
      await this.deps.transactor.run(async (tx) => {
        const series = this.repo.in(tx);
        await series.update(before.id, { name, meta });
        // Members' effective meta follows the series: series meta merged with their own.
        const shared = parseJson<Obj>(meta, {});
        for (const m of await series.memberOwnMeta(before.id)) {
          const merged = { ...shared, ...parseJson<Obj>(m.own_meta, {}) };
          for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
          await series.setMemberMeta(m.id, JSON.stringify(merged));
        }
      });
      const after = await this.named.require(before.id);
      return { id: before.id, name, before, after, result: after };
    });
  }

  delete(actor: Actor, id: number | undefined): Promise<SeriesRow> {
    return this.named.delete(actor, id, (tx, row) => this.repo.in(tx).releaseMembers(row.id, nowIso()));
  }

  members(id: number, limit: number) {
    return this.repo.members(id, limit);
  }
}
