// Administration figures (companion §11.3), each one aggregate statement, never a table scan in
// JS; and the stored overrides of the runtime settings.
import { sql } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, RuntimeSettingTable } from '../schema/database.js';

/** Tables counted by the data statistics, under the key each count is reported as. */
export const COUNTED = {
  resources: 'resources',
  notes: 'notes',
  groups: 'groups',
  tags: 'tags',
  categories: 'categories',
  resourceCategories: 'resource_categories',
  noteTypes: 'note_types',
  series: 'series',
  queries: 'queries',
  templatePartials: 'template_partials',
  relations: 'group_relations',
  relationTypes: 'group_relation_types',
  logEntries: 'log_entries',
  resourceVersions: 'resource_versions',
} as const;
export type CountedKey = keyof typeof COUNTED;

const numbers = (row: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v ?? 0)]));

export class StatsRepository extends Repository<Database> {
  /** Row counts of every counted table, in one statement. */
  async entityCounts(): Promise<Record<CountedKey, number>> {
    const r = await sql<Record<string, number>>`SELECT ${sql.join(
      Object.entries(COUNTED).map(([key, table]) => sql`(SELECT count(*) FROM ${sql.table(table)}) AS ${sql.ref(key)}`),
    )}`.execute(this.db);
    return numbers(r.rows[0]) as Record<CountedKey, number>;
  }

  /** Bytes of the current files and of every version row. */
  async storedBytes(): Promise<{ resources: number; versions: number }> {
    const r = await sql<{ resources: number; versions: number }>`SELECT
        (SELECT coalesce(sum(file_size), 0) FROM resources) AS resources,
        (SELECT coalesce(sum(file_size), 0) FROM resource_versions) AS versions`.execute(this.db);
    return { resources: Number(r.rows[0]?.resources ?? 0), versions: Number(r.rows[0]?.versions ?? 0) };
  }

  /** Resources, notes and groups created since `since`. */
  async createdSince(since: string): Promise<Record<string, number>> {
    const r = await sql<Record<string, number>>`SELECT
        (SELECT count(*) FROM resources WHERE created_at >= ${since}) AS resources,
        (SELECT count(*) FROM notes WHERE created_at >= ${since}) AS notes,
        (SELECT count(*) FROM "groups" WHERE created_at >= ${since}) AS "groups"`.execute(this.db);
    return numbers(r.rows[0]);
  }

  /** Bytes and count per content type, largest first. */
  async storageByContentType(limit: number): Promise<{ contentType: string; totalBytes: number; count: number }[]> {
    const r = await sql<{ contentType: string; totalBytes: number; count: number }>`SELECT content_type AS "contentType", coalesce(sum(file_size), 0) AS "totalBytes", count(*) AS count
      FROM resources GROUP BY content_type ORDER BY 2 DESC LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => ({ contentType: x.contentType, totalBytes: Number(x.totalBytes), count: Number(x.count) }));
  }

  /** The most used tags on resources. */
  async topTags(limit: number): Promise<{ id: number; name: string; count: number }[]> {
    const r = await sql<{ id: number; name: string; count: number }>`SELECT t.id, t.name, count(*) AS count FROM resource_tags rt JOIN tags t ON t.id = rt.tag_id
      GROUP BY t.id, t.name ORDER BY count(*) DESC, t.name LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => ({ id: x.id, name: x.name, count: Number(x.count) }));
  }

  /** The group categories with the most groups. */
  async topCategories(limit: number): Promise<{ id: number; name: string; count: number }[]> {
    const r = await sql<{ id: number; name: string; count: number }>`SELECT c.id, c.name, count(*) AS count FROM "groups" g JOIN categories c ON c.id = g.category_id
      GROUP BY c.id, c.name ORDER BY count(*) DESC, c.name LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => ({ id: x.id, name: x.name, count: Number(x.count) }));
  }

  /** Resources without tags and without related groups. */
  async orphans(): Promise<{ withoutTags: number; withoutGroups: number }> {
    const r = await sql<{ withoutTags: number; withoutGroups: number }>`SELECT
        (SELECT count(*) FROM resources r WHERE NOT EXISTS (SELECT 1 FROM resource_tags x WHERE x.resource_id = r.id)) AS "withoutTags",
        (SELECT count(*) FROM resources r WHERE NOT EXISTS (SELECT 1 FROM groups_related_resources x WHERE x.resource_id = r.id)) AS "withoutGroups"`.execute(this.db);
    return { withoutTags: Number(r.rows[0]?.withoutTags ?? 0), withoutGroups: Number(r.rows[0]?.withoutGroups ?? 0) };
  }

  /** Hash and pair figures of the similarity worker. */
  async similarity(): Promise<Record<string, number>> {
    const r = await sql<Record<string, number>>`SELECT
        (SELECT count(*) FROM image_hashes) AS "totalHashes",
        (SELECT count(*) FROM resource_similarities) AS "similarPairsFound",
        (SELECT count(*) FROM image_hashes WHERE d_hash_int = 0) AS "dhashZeroCount",
        (SELECT count(*) FROM image_hashes WHERE hash_version IS NULL) AS "v1Count",
        (SELECT count(*) FROM image_hashes WHERE hash_version = 2) AS "v2Count",
        (SELECT count(*) FROM image_hashes WHERE status = 'flat') AS "flatCount",
        (SELECT count(*) FROM image_hashes WHERE status = 'failed') AS "failedCount",
        (SELECT count(*) FROM resource_similarities WHERE p_distance IS NOT NULL) AS "v2PairsFound"`.execute(this.db);
    return numbers(r.rows[0]);
  }

  /** Audit-log entries per level, and errors since `since`. */
  async logLevels(since: string): Promise<{ total: number; info: number; warning: number; error: number; recent: number }> {
    const r = await sql<Record<string, number>>`SELECT count(*) AS total,
        sum(CASE WHEN level = 'info' THEN 1 ELSE 0 END) AS info,
        sum(CASE WHEN level = 'warning' THEN 1 ELSE 0 END) AS warning,
        sum(CASE WHEN level = 'error' THEN 1 ELSE 0 END) AS error,
        sum(CASE WHEN level = 'error' AND created_at >= ${since} THEN 1 ELSE 0 END) AS recent
      FROM log_entries`.execute(this.db);
    const n = numbers(r.rows[0]);
    return { total: n.total ?? 0, info: n.info ?? 0, warning: n.warning ?? 0, error: n.error ?? 0, recent: n.recent ?? 0 };
  }
}

export class SettingsRepository extends Repository<Database> {
  async all(): Promise<RuntimeSettingTable[]> {
    return this.db.selectFrom('runtime_settings').selectAll().execute();
  }

  /** Stores (or replaces) the override of `key`. */
  async save(key: string, row: Omit<RuntimeSettingTable, 'key'>): Promise<void> {
    await this.db
      .insertInto('runtime_settings')
      .values({ key, ...row })
      .onConflict((oc) => oc.column('key').doUpdateSet(row))
      .execute();
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('runtime_settings').where('key', '=', key).execute();
  }
}
