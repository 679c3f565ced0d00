// Tag rows and their links to resources, notes and groups.
import { sql, type Insertable } from 'kysely';
import type { TagTable } from '../schema/database.js';
import { NamedRepository, type NamedRow } from '../common/named.repository.js';
import type { SortSpec } from '../common/list.js';

export type TagRow = NamedRow<'tags'>;

/** The link tables a tag appears in, with the column naming the tagged entity. */
const TAG_LINKS = [
  ['resource_tags', 'resource_id'],
  ['note_tags', 'note_id'],
  ['group_tags', 'group_id'],
] as const;

export type Tagged = 'resource' | 'note' | 'group';
export type TagUsage = Record<Tagged, number>;
const LINK_OF: Record<Tagged, (typeof TAG_LINKS)[number]> = { resource: TAG_LINKS[0], note: TAG_LINKS[1], group: TAG_LINKS[2] };

/** Usage counts, for SortBy=most_used_resource|most_used_note|most_used_group. */
const usage = (table: string) => sql`(SELECT count(*) FROM ${sql.table(table)} u WHERE u.tag_id = tags.id)`;

const TAG_SORT: SortSpec = {
  columns: ['id', 'name', 'description', 'created_at', 'updated_at'],
  meta: true,
  computed: {
    most_used_resource: usage('resource_tags'),
    most_used_note: usage('note_tags'),
    most_used_group: usage('group_tags'),
  },
};

export class TagRepository extends NamedRepository<'tags'> {
  protected readonly table = 'tags';
  protected readonly sort = TAG_SORT;

  async insert(row: Insertable<TagTable>): Promise<TagRow> {
    return (await this.db.insertInto('tags').values(row).returningAll().executeTakeFirstOrThrow()) as TagRow;
  }

  /** The tags of a page of entities, by entity id, each list ordered by name: one statement. */
  async tagsOf(entity: Tagged, ids: readonly number[]): Promise<Map<number, TagRow[]>> {
    const out = new Map<number, TagRow[]>();
    if (ids.length === 0) return out;
    const [table, col] = LINK_OF[entity];
    const rows = await this.db
      .selectFrom(`${table} as l` as 'resource_tags as l')
      .innerJoin('tags', 'tags.id', 'l.tag_id')
      .selectAll('tags')
      .select(sql.ref<number>(`l.${col}`).as('owner_id'))
      .where(sql.ref(`l.${col}`), 'in', [...new Set(ids)])
      .orderBy('tags.name')
      .orderBy('tags.id')
      .execute();
    for (const { owner_id, ...tag } of rows) {
      const list = out.get(owner_id);
      if (list) list.push(tag as TagRow);
      else out.set(owner_id, [tag as TagRow]);
    }
    return out;
  }

  /** How many resources, notes and groups carry each of these tags: one grouped count per kind. */
  async usage(ids: readonly number[]): Promise<Map<number, TagUsage>> {
    const out = new Map<number, TagUsage>();
    for (const id of ids) out.set(id, { resource: 0, note: 0, group: 0 });
    if (ids.length === 0) return out;
    for (const kind of ['resource', 'note', 'group'] as const) {
      const [table] = LINK_OF[kind];
      const rows = await this.db
        .selectFrom(`${table} as l` as 'resource_tags as l')
        .select(['l.tag_id', sql<number>`count(*)`.as('n')])
        .where('l.tag_id', 'in', [...new Set(ids)])
        .groupBy('l.tag_id')
        .execute();
      for (const r of rows) out.get(r.tag_id)![kind] = Number(r.n);
    }
    return out;
  }

  /** The newest entities of one kind carrying a tag (id and name), for the tag page. */
  async carriers(kind: Tagged, tagId: number, limit: number): Promise<{ id: number; name: string }[]> {
    const [table, col] = LINK_OF[kind];
    const target = `${kind}s` as 'resources';
    return this.db
      .selectFrom(`${table} as l` as 'resource_tags as l')
      .innerJoin(`${target} as e` as 'resources as e', (j) => j.on(sql.ref(`l.${col}`), '=', sql.ref('e.id')))
      .select(['e.id', 'e.name'])
      .where('l.tag_id', '=', tagId)
      .orderBy('e.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Gives the winner every link of the losers it does not have yet (the losers' own links stay). */
  async copyLinks(winnerId: number, loserIds: readonly number[]): Promise<void> {
    for (const [table, col] of TAG_LINKS) {
      await sql`INSERT INTO ${sql.table(table)} (${sql.ref(col)}, tag_id)
        SELECT DISTINCT l.${sql.ref(col)}, CAST(${winnerId} AS integer) FROM ${sql.table(table)} l
        WHERE l.tag_id IN (${sql.join([...loserIds])})
          AND NOT EXISTS (SELECT 1 FROM ${sql.table(table)} w WHERE w.tag_id = ${winnerId} AND w.${sql.ref(col)} = l.${sql.ref(col)})`.execute(this.db);
    }
  }
}

