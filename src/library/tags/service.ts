// Tag rules: unique names (a JSON create of an existing name returns that tag), partial
// updates, bulk delete, and merge that moves every association to the winner.
import { sql } from 'kysely';
import { nowIso, parseJson } from '../../core/db/dialect.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange, type Row } from '../common/crud.js';
import { jsonObjectText, validName } from '../common/names.js';

export type TagRow = Row<'tags'>;

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

/** Usage counts, for SortBy=most_used_resource|most_used_note|most_used_group. */
const usage = (table: string) => sql`(SELECT count(*) FROM ${sql.table(table)} u WHERE u.tag_id = tags.id)`;

export interface TagWrite {
  ID?: number;
  Name?: string;
  Description?: string;
  Meta?: string;
}

export class TagService {
  readonly crud: Crud<'tags'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'tags',
      entityType: 'tag',
      label: 'tag',
      sort: {
        columns: ['id', 'name', 'description', 'created_at', 'updated_at'],
        meta: true,
        computed: {
          most_used_resource: usage('resource_tags'),
          most_used_note: usage('note_tags'),
          most_used_group: usage('group_tags'),
        },
      },
    });
  }

  /**
   * Creates a tag, or returns the existing one of that name when `reuseExisting` (JSON API);
   * browser forms refuse duplicates instead.
   */
  async create(actor: Actor, input: TagWrite, reuseExisting: boolean): Promise<TagRow> {
    const name = validName(input.Name);
    const existing = await this.crud.findByName(name);
    if (existing) {
      if (reuseExisting) return existing;
      throw badRequest(`a tag named "${name}" already exists`);
    }
    const meta = jsonObjectText(input.Meta, 'Meta');
    return withChange(this.lib, actor, 'create', 'tag', async () => {
      const row = await this.lib.db
        .insertInto('tags')
        .values({
          ...newRowStamp(actor),
          name,
          description: input.Description ?? '',
          meta,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, name: row.name, after: row, result: row };
    });
  }

  /** Partial update: omitted fields keep their stored values. */
  async update(actor: Actor, id: number, input: TagWrite): Promise<TagRow> {
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    if (name !== before.name) {
      const clash = await this.crud.findByName(name);
      if (clash && clash.id !== id) throw conflict(`a tag named "${name}" already exists`);
    }
    return withChange(this.lib, actor, 'update', 'tag', async () => {
      await this.crud.update(id, {
        name,
        description: input.Description ?? before.description,
        meta: input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta'),
      });
      const after = await this.crud.require(id);
      return { id, name, before, after, result: after };
    });
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest('ID must list at least one tag');
    const rows = await this.lib.db.selectFrom('tags').select(['id', 'name']).where('id', 'in', unique).execute();
    if (rows.length !== unique.length) {
      const found = new Set(rows.map((r) => r.id));
      throw notFound(`tag ${unique.find((i) => !found.has(i))} not found`);
    }
    await withChange(this.lib, actor, 'delete', 'tag', async () => {
      await this.lib.db.deleteFrom('tags').where('id', 'in', unique).execute();
      return { message: `Deleted ${rows.length} tags: ${rows.map((r) => r.name).join(', ')}`, result: undefined };
    });
  }

  /** Moves every resource, note and group association of the losers to the winner, then deletes them. */
  async merge(actor: Actor, winnerId: number, loserIds: number[]): Promise<void> {
    const losers = [...new Set(loserIds)];
    if (losers.length === 0) throw badRequest('Losers must list at least one tag');
    if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
    const winner = await this.crud.require(winnerId);
    const found = await this.lib.db.selectFrom('tags').select(['id', 'name']).where('id', 'in', losers).execute();
    if (found.length !== losers.length) throw notFound('one of the losing tags does not exist');

    await withChange(this.lib, actor, 'update', 'tag', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        for (const [table, col] of [
          ['resource_tags', 'resource_id'],
          ['note_tags', 'note_id'],
          ['group_tags', 'group_id'],
        ] as const) {
          // Copy links the winner does not have yet, then drop the losers' links.
          await sql`INSERT INTO ${sql.table(table)} (${sql.ref(col)}, tag_id)
            SELECT DISTINCT l.${sql.ref(col)}, CAST(${winner.id} AS integer) FROM ${sql.table(table)} l
            WHERE l.tag_id IN (${sql.join(losers)})
              AND NOT EXISTS (SELECT 1 FROM ${sql.table(table)} w WHERE w.tag_id = ${winner.id} AND w.${sql.ref(col)} = l.${sql.ref(col)})`.execute(trx);
        }
        await trx.deleteFrom('tags').where('id', 'in', losers).execute();
        await trx.updateTable('tags').set({ updated_at: nowIso() }).where('id', '=', winner.id).execute();
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
