// Administration figures (companion §11.3): server runtime, entity counts and storage, and
// the heavier statistics. Every figure is one aggregate SQL statement (the repository's), never
// a table scan in JS.
import { statfs, stat } from 'node:fs/promises';
import type { Library } from '../context.js';
import type { StatsRepository } from './repository.js';

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

/** The database file's size with its WAL (0 for a database server or an in-memory database). */
async function dbFileSize(lib: Library): Promise<number> {
  if (!lib.dialect.singleFile || lib.config.dbDsn === ':memory:') return 0;
  const file = lib.config.dbDsn.replace(/^file:/, '').split('?')[0];
  const sizes = await Promise.all([file, `${file}-wal`].map((f) => stat(f).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

async function serverStats(lib: Library) {
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
    dbType: lib.dialect.label,
    dbOpenConns: lib.dialect.singleFile ? 1 : lib.config.maxDbConnections || 10,
    dbIdleConns: 0,
    dbInUse: 0,
    dbFileSizeBytes,
    dbFileSizeFmt: formatBytes(dbFileSizeBytes),
    hashWorkerEnabled: !lib.config.hashing.disabled,
    hashWorkerCount: lib.config.hashing.disabled ? 0 : lib.config.hashing.workerCount,
    downloadQueueLength: lib.jobs.list().filter((j) => j.status === 'pending' || j.status === 'downloading' || j.status === 'processing').length,
  };
}

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

async function dataStats(lib: Library, repo: StatsRepository) {
  const entities = await repo.entityCounts();
  const { resources: resourceBytes, versions: versionBytes } = await repo.storedBytes();
  const growth: Record<string, Record<string, number>> = {};
  for (const days of [7, 30, 90]) {
    growth[`last${days}Days`] = await repo.createdSince(new Date(Date.now() - days * 86_400_000).toISOString());
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
      dbType: lib.dialect.label,
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

async function expensiveStats(repo: StatsRepository) {
  const since = new Date(Date.now() - 86_400_000).toISOString();
  const [byType, topTags, topCategories, orphans, similarity, logs] = await Promise.all([
    repo.storageByContentType(50),
    repo.topTags(10),
    repo.topCategories(10),
    repo.orphans(),
    repo.similarity(),
    repo.logLevels(since),
  ]);
  return {
    storageByContentType: byType.map((r) => ({ ...r, totalFmt: formatBytes(r.totalBytes) })),
    topTags,
    topCategories,
    orphans,
    similarity,
    logStats: {
      totalEntries: logs.total,
      byLevel: { info: logs.info, warning: logs.warning, error: logs.error },
      recentErrors: logs.recent,
    },
  };
}

/** The three figure sets of the administration endpoints and pages. */
export class AdminStats {
  constructor(
    private readonly lib: Library,
    private readonly repo: StatsRepository,
  ) {}

  server() {
    return serverStats(this.lib);
  }

  data() {
    return dataStats(this.lib, this.repo);
  }

  expensive() {
    return expensiveStats(this.repo);
  }
}
