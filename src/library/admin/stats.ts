// Administration figures (companion §11.3): server runtime, entity counts and storage, and
// the heavier statistics. Every figure is one aggregate SQL statement, never a table scan in JS.
import { statfs, stat } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Library } from '../context.js';

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${units[u]}`;
}

function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d}d` : '', h || d ? `${h}h` : '', `${m}m`].filter(Boolean).join(' ');
}

/** The SQLite database file's size (0 for PostgreSQL and in-memory databases). */
async function dbFileSize(lib: Library): Promise<number> {
  if (lib.dialect.kind !== 'sqlite' || lib.config.dbDsn === ':memory:') return 0;
  const file = lib.config.dbDsn.replace(/^file:/, '').split('?')[0];
  const sizes = await Promise.all([file, `${file}-wal`].map((f) => stat(f).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

export async function serverStats(lib: Library) {
  const mem = process.memoryUsage();
  const uptimeSeconds = (Date.now() - lib.startedAt.getTime()) / 1000;
  const dbFileSizeBytes = await dbFileSize(lib);
  const handles = (process as unknown as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo?.().length ?? 0;
  return {
    uptime: formatUptime(uptimeSeconds),
    uptimeSeconds: Math.round(uptimeSeconds * 10) / 10,
    startedAt: lib.startedAt.toISOString(),
    heapAlloc: mem.heapUsed,
    heapInUse: mem.heapTotal,
    sys: mem.rss,
    numGC: 0,
    heapAllocFmt: formatBytes(mem.heapUsed),
    heapInUseFmt: formatBytes(mem.heapTotal),
    sysFmt: formatBytes(mem.rss),
    // Node has no goroutines; active handles are the nearest measure of concurrent work.
    goroutines: handles,
    goVersion: `node ${process.version}`,
    dbType: lib.dialect.kind === 'sqlite' ? 'SQLITE' : 'POSTGRES',
    dbOpenConns: lib.dialect.kind === 'sqlite' ? 1 : lib.config.maxDbConnections || 10,
    dbIdleConns: 0,
    dbInUse: 0,
    dbFileSizeBytes,
    dbFileSizeFmt: formatBytes(dbFileSizeBytes),
    hashWorkerEnabled: !lib.config.hashing.disabled,
    hashWorkerCount: lib.config.hashing.disabled ? 0 : lib.config.hashing.workerCount,
    downloadQueueLength: lib.jobs.list().filter((j) => j.status === 'pending' || j.status === 'downloading' || j.status === 'processing').length,
  };
}

const COUNTED = {
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

async function diskUsage(path: string) {
  try {
    const s = await statfs(path);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    return { diskTotalBytes: total, diskFreeBytes: free, diskUsedBytes: total - free, usageAvailable: true as const };
  } catch (e) {
    return { usageAvailable: false as const, usageError: (e as Error).message };
  }
}

export async function dataStats(lib: Library) {
  const db = lib.db;
  const counts = await sql<Record<string, number>>`SELECT ${sql.join(
    Object.entries(COUNTED).map(([key, table]) => sql`(SELECT count(*) FROM ${sql.table(table)}) AS ${sql.ref(key)}`),
  )}`.execute(db);
  const entities = Object.fromEntries(Object.entries(counts.rows[0]).map(([k, v]) => [k, Number(v)]));
  const bytes = await sql<{ resources: number; versions: number }>`SELECT
      (SELECT coalesce(sum(file_size), 0) FROM resources) AS resources,
      (SELECT coalesce(sum(file_size), 0) FROM resource_versions) AS versions`.execute(db);
  const resourceBytes = Number(bytes.rows[0].resources);
  const versionBytes = Number(bytes.rows[0].versions);
  const growth: Record<string, Record<string, number>> = {};
  for (const days of [7, 30, 90]) {
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    const r = await sql<Record<string, number>>`SELECT
        (SELECT count(*) FROM resources WHERE created_at >= ${since}) AS resources,
        (SELECT count(*) FROM notes WHERE created_at >= ${since}) AS notes,
        (SELECT count(*) FROM "groups" WHERE created_at >= ${since}) AS "groups"`.execute(db);
    growth[`last${days}Days`] = Object.fromEntries(Object.entries(r.rows[0]).map(([k, v]) => [k, Number(v)]));
  }
  const disk = await diskUsage(lib.config.filePath);
  const fmt = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).flatMap(([k, v]) => (typeof v === 'number' && k.endsWith('Bytes') ? [[k, v], [`${k}Fmt`, formatBytes(v)]] : [[k, v]])));
  return {
    entities,
    storageTotalBytes: resourceBytes + versionBytes,
    storageTotalFmt: formatBytes(resourceBytes + versionBytes),
    totalVersionStorageBytes: versionBytes,
    totalVersionStorageFormatted: formatBytes(versionBytes),
    storageLocations: [
      fmt({
        key: '',
        label: 'Default',
        path: lib.config.filePath,
        kind: 'default',
        appResourceBytes: resourceBytes,
        appVersionBytes: versionBytes,
        appTotalBytes: resourceBytes + versionBytes,
        resourceCount: entities.resources,
        versionCount: entities.resourceVersions,
        ...disk,
        ...(disk.usageAvailable ? { diskUsedPercent: Math.round((disk.diskUsedBytes / Math.max(1, disk.diskTotalBytes)) * 1000) / 10 } : {}),
      }),
    ],
    growth,
    config: {
      dbType: lib.dialect.kind === 'sqlite' ? 'SQLITE' : 'POSTGRES',
      ephemeralMode: lib.config.ephemeral,
      memoryDb: lib.config.dbDsn === ':memory:',
      bindAddress: `${lib.config.host}:${lib.config.port}`,
      fileSavePath: lib.config.filePath,
      dbDsn: lib.config.dbDsn.replace(/(password=)\S+/i, '$1****').replace(/(\/\/[^:/@]+:)[^@]+@/, '$1****@'),
      hasReadOnlyDB: lib.config.readonlyDsn !== '',
      maxDBConnections: lib.config.maxDbConnections,
      remoteConnectTimeout: `${lib.settings.millis('remote_connect_timeout')}ms`,
      remoteIdleTimeout: `${lib.settings.millis('remote_idle_timeout')}ms`,
      remoteOverallTimeout: `${lib.settings.millis('remote_overall_timeout')}ms`,
    },
  };
}

export async function expensiveStats(lib: Library) {
  const db = lib.db;
  const since = new Date(Date.now() - 86_400_000).toISOString();
  const [byType, topTags, topCategories, orphans, similarity, logs] = await Promise.all([
    sql<{ contentType: string; totalBytes: number; count: number }>`SELECT content_type AS "contentType", coalesce(sum(file_size), 0) AS "totalBytes", count(*) AS count
      FROM resources GROUP BY content_type ORDER BY 2 DESC LIMIT 50`.execute(db),
    sql<{ id: number; name: string; count: number }>`SELECT t.id, t.name, count(*) AS count FROM resource_tags rt JOIN tags t ON t.id = rt.tag_id
      GROUP BY t.id, t.name ORDER BY count(*) DESC, t.name LIMIT 10`.execute(db),
    sql<{ id: number; name: string; count: number }>`SELECT c.id, c.name, count(*) AS count FROM "groups" g JOIN categories c ON c.id = g.category_id
      GROUP BY c.id, c.name ORDER BY count(*) DESC, c.name LIMIT 10`.execute(db),
    sql<{ withoutTags: number; withoutGroups: number }>`SELECT
        (SELECT count(*) FROM resources r WHERE NOT EXISTS (SELECT 1 FROM resource_tags x WHERE x.resource_id = r.id)) AS "withoutTags",
        (SELECT count(*) FROM resources r WHERE NOT EXISTS (SELECT 1 FROM groups_related_resources x WHERE x.resource_id = r.id)) AS "withoutGroups"`.execute(db),
    sql<Record<string, number>>`SELECT
        (SELECT count(*) FROM image_hashes) AS "totalHashes",
        (SELECT count(*) FROM resource_similarities) AS "similarPairsFound",
        (SELECT count(*) FROM image_hashes WHERE d_hash_int = 0) AS "dhashZeroCount",
        (SELECT count(*) FROM image_hashes WHERE hash_version IS NULL) AS "v1Count",
        (SELECT count(*) FROM image_hashes WHERE hash_version = 2) AS "v2Count",
        (SELECT count(*) FROM image_hashes WHERE status = 'flat') AS "flatCount",
        (SELECT count(*) FROM image_hashes WHERE status = 'failed') AS "failedCount",
        (SELECT count(*) FROM resource_similarities WHERE p_distance IS NOT NULL) AS "v2PairsFound"`.execute(db),
    sql<Record<string, number>>`SELECT count(*) AS total,
        sum(CASE WHEN level = 'info' THEN 1 ELSE 0 END) AS info,
        sum(CASE WHEN level = 'warning' THEN 1 ELSE 0 END) AS warning,
        sum(CASE WHEN level = 'error' THEN 1 ELSE 0 END) AS error,
        sum(CASE WHEN level = 'error' AND created_at >= ${since} THEN 1 ELSE 0 END) AS recent
      FROM log_entries`.execute(db),
  ]);
  const num = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' && k !== 'name' && k !== 'contentType' ? Number(v) : v]));
  const l = logs.rows[0];
  return {
    storageByContentType: byType.rows.map((r) => ({ ...num(r), totalBytes: Number(r.totalBytes), count: Number(r.count), totalFmt: formatBytes(Number(r.totalBytes)) })),
    topTags: topTags.rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.count) })),
    topCategories: topCategories.rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.count) })),
    orphans: { withoutTags: Number(orphans.rows[0].withoutTags), withoutGroups: Number(orphans.rows[0].withoutGroups) },
    similarity: Object.fromEntries(Object.entries(similarity.rows[0]).map(([k, v]) => [k, Number(v)])),
    logStats: {
      totalEntries: Number(l.total),
      byLevel: { info: Number(l.info ?? 0), warning: Number(l.warning ?? 0), error: Number(l.error ?? 0) },
      recentErrors: Number(l.recent ?? 0),
    },
  };
}
