// Tag rules: unique names (a JSON create of an existing name returns that tag), partial
// updates, bulk delete, and merge that moves every association to the winner.
import { parseJson } from '../../core/db/values.js';
import { badRequest } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { newRowStamp, changedText, withChange, type ChangeData } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { TagRepository, TagRow, TagUsage, Tagged } from './repository.js';

export type { TagRow, Tagged };

export function tagRecord(row: TagRow) {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Name: row.name,
    Description: row.description,
    Meta: parseJson<Record<string, unknown>>(row.meta, {}),
  };
}

export interface TagWrite {
  ID?: number;
  Name?: string;
  Description?: string;
  Meta?: string;
}

export class TagService {
  readonly named: NamedEntities<'tags'>;

  constructor(
    private readonly repo: TagRepository,
    private readonly deps: NamedDeps,
  ) {
    this.named = new NamedEntities(repo, { entityType: 'tag', label: 'tag', uniqueName: true }, deps);
  }

  /** Usage counts per tag (resources, notes, groups carrying it). */
  usage(ids: readonly number[]): Promise<Map<number, TagUsage>> {
    return this.repo.usage(ids);
  }

  /** The newest carriers of a tag, per kind. */
  async carriers(tagId: number, limit: number): Promise<Record<Tagged, { id: number; name: string }[]>> {
    return { resource: await this.repo.carriers('resource', tagId, limit), note: await this.repo.carriers('note', tagId, limit), group: await this.repo.carriers('group', tagId, limit) };
  }

  /** The tags of a page of resources, notes or groups, by entity id (one statement). */
  tagsOf(entity: Tagged, ids: readonly number[]): Promise<Map<number, TagRow[]>> {
    return this.repo.tagsOf(entity, ids);
  }

  /**
   * Creates a tag, or returns the existing one of that name when `reuseExisting` (JSON API);
   * browser forms refuse duplicates instead.
   */
  async create(actor: Actor, input: TagWrite, reuseExisting: boolean): Promise<TagRow> {
    const data: ChangeData = { id: 0, name: validName(input.Name), description: input.Description ?? '' };
    const meta = jsonObjectText(input.Meta, 'Meta');
    // Before listeners (plugin hooks) may rename the tag, so the existing-name check follows them.
    return withChange(
      this.deps.bus,
      actor,
      'create',
      'tag',
      async () => {
        const name = validName(changedText(data, 'name', ''));
        const existing = await this.repo.findByName(name);
        if (existing) {
          if (reuseExisting) return { result: existing, unchanged: true };
          throw badRequest(`a tag named "${name}" already exists`);
        }
        const row = await this.repo.insert({ ...newRowStamp(actor), name, description: changedText(data, 'description', ''), meta });
        return { id: row.id, name: row.name, after: row, result: row };
      },
      { data },
    );
  }

  /** Partial update: omitted fields keep their stored values. */
  async update(actor: Actor, id: number, input: TagWrite): Promise<TagRow> {
    const before = await this.named.require(id);
    const requested = input.Name === undefined ? before.name : validName(input.Name);
    if (requested !== before.name) await this.named.assertNameFree(requested, id);
    const data: ChangeData = { id, name: requested, description: input.Description ?? before.description };
    return withChange(
      this.deps.bus,
      actor,
      'update',
      'tag',
      async () => {
        const name = validName(changedText(data, 'name', requested));
        if (name !== requested && name !== before.name) await this.named.assertNameFree(name, id);
        await this.repo.update(id, {
          name,
          description: changedText(data, 'description', before.description),
          meta: input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta'),
        });
        const after = await this.named.require(id);
        return { id, name, before, after, result: after };
      },
      { data },
    );
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    if (ids.length === 0) throw badRequest('ID must list at least one tag');
    const rows = await this.named.requireAll(ids);
    await withChange(
      this.deps.bus,
      actor,
      'delete',
      'tag',
      async () => {
        await this.repo.remove(rows.map((r) => r.id));
        return { message: `Deleted ${rows.length} tags: ${rows.map((r) => r.name).join(', ')}`, result: undefined };
      },
      { ids: rows.map((r) => r.id) },
    );
  }

  /** Moves every resource, note and group association of the losers to the winner, then deletes them. */
  async merge(actor: Actor, winnerId: number, loserIds: number[]): Promise<void> {
    const losers = [...new Set(loserIds)];
    if (losers.length === 0) throw badRequest('Losers must list at least one tag');
    if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
    const winner = await this.named.require(winnerId);
    const found = await this.named.requireAll(losers);

    await withChange(this.deps.bus, actor, 'update', 'tag', async () => {
      await this.deps.transactor.run(async (tx) => {
        const tags = this.repo.in(tx);
        await tags.copyLinks(winner.id, losers);
        await tags.remove(losers);
        await tags.update(winner.id, {});
      });
      return {
        id: winner.id,
        name: winner.name,
        message: `Merged tags ${found.map((t) => `"${t.name}"`).join(', ')} into "${winner.name}"`,
        result: undefined,
      };
    });
  }
}
