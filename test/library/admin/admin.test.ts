import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { RuntimeSettings } from '../../../src/library/admin/settings.js';
import { bootSettings } from '../../../src/library/admin/boot.js';
import { SettingsRepository } from '../../../src/library/admin/repository.js';

type View = { key: string; group: string; type: string; current: number | string; bootDefault: number | string; overridden: boolean; reason?: string; minNumeric?: number; maxNumeric?: number; allowZero?: boolean };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-remote-connect-timeout', '45s']);
});
afterAll(async () => lib?.close());

describe('admin statistics', () => {
  it('reports server runtime figures under the documented names', async () => {
    const r = await lib.json<Record<string, unknown>>('GET', '/v1/admin/server-stats');
    expect(r.status).toBe(200);
    for (const k of ['uptime', 'uptimeSeconds', 'startedAt', 'heapAlloc', 'heapInUse', 'sys', 'heapAllocFmt', 'goroutines', 'goVersion', 'dbType', 'dbFileSizeBytes', 'downloadQueueLength']) {
      expect(r.body, k).toHaveProperty(k);
    }
    expect(r.body.dbType).toBe(lib.lib.dialect.kind === 'sqlite' ? 'SQLITE' : 'POSTGRES');
    expect(typeof r.body.heapAlloc).toBe('number');
  });

  it('counts entities and storage', async () => {
    await lib.json('POST', '/v1/tag', { Name: 'counted' });
    const r = await lib.json<{ entities: Record<string, number>; storageLocations: { kind: string; usageAvailable: boolean }[]; growth: Record<string, Record<string, number>>; config: Record<string, unknown> }>('GET', '/v1/admin/data-stats');
    expect(r.body.entities.tags).toBe(1);
    expect(r.body.entities.categories).toBe(3);
    expect(Object.keys(r.body.entities)).toEqual(['resources', 'notes', 'groups', 'tags', 'categories', 'resourceCategories', 'noteTypes', 'series', 'queries', 'templatePartials', 'relations', 'relationTypes', 'logEntries', 'resourceVersions']);
    expect(r.body.storageLocations[0]).toMatchObject({ kind: 'default', usageAvailable: true });
    expect(Object.keys(r.body.growth)).toEqual(['last7Days', 'last30Days', 'last90Days']);
    expect(r.body.config.remoteConnectTimeout).toBe('45000ms');
  });

  it('answers the heavier statistics', async () => {
    const r = await lib.json<{ topCategories: unknown[]; logStats: { totalEntries: number; byLevel: Record<string, number> }; similarity: Record<string, number>; orphans: Record<string, number> }>('GET', '/v1/admin/data-stats/expensive');
    expect(r.status).toBe(200);
    expect(r.body.logStats.totalEntries).toBeGreaterThan(0);
    expect(r.body.logStats.byLevel.info).toBe(r.body.logStats.totalEntries);
    expect(r.body.similarity).toMatchObject({ totalHashes: 0, similarPairsFound: 0 });
    expect(r.body.orphans).toEqual({ withoutTags: 0, withoutGroups: 0 });
  });
});

describe('runtime settings', () => {
  it('lists every setting grouped in the documented order with boot defaults', async () => {
    const r = await lib.json<View[]>('GET', '/v1/admin/settings');
    expect(r.body).toHaveLength(18);
    const groups = [...new Set(r.body.map((v) => v.group))];
    expect(groups).toEqual(['uploads', 'queries', 'remote_downloads', 'sharing', 'docs', 'deduplication', 'exports']);
    const connect = r.body.find((v) => v.key === 'remote_connect_timeout')!;
    expect(connect).toMatchObject({ type: 'duration', current: 45e9, bootDefault: 45e9, overridden: false, minNumeric: 1e9 });
    expect(r.body.find((v) => v.key === 'max_upload_size')).toMatchObject({ allowZero: true, current: 2147483648 });
  });

  it('sets values parsed by type, records the reason and audits the change', async () => {
    const r = await lib.json<View>('PUT', '/v1/admin/settings/max_upload_size', { value: '512M', reason: 'big scans' });
    expect(r.body).toMatchObject({ current: 512 * 2 ** 20, overridden: true, reason: 'big scans' });
    expect((await lib.json<View>('PUT', '/v1/admin/settings/max_upload_size', { value: '0' })).body.current).toBe(0);
    expect((await lib.json<View>('PUT', '/v1/admin/settings/remote_idle_timeout', { value: '59m30s' })).body.current).toBe(3570e9);
    expect((await lib.json('PUT', '/v1/admin/settings/remote_idle_timeout', { value: '1h30s' })).status).toBe(400);
    expect((await lib.json<View>('PUT', '/v1/admin/settings/share_public_url', { value: 'https://share.example.org' })).body.current).toBe('https://share.example.org');
    const logs = await lib.json<{ logs: { action: string; entityName: string; message: string }[] }>('GET', '/v1/logs?EntityType=runtime_setting');
    expect(logs.body.logs.at(-1)).toMatchObject({ action: 'update', entityName: 'max_upload_size', message: 'max_upload_size: 2147483648 → 536870912 (reason: big scans)' });
  });

  it('refuses out-of-bounds and unparsable values with 400 and unknown keys with 404', async () => {
    const bad: [string, string][] = [
      ['remote_connect_timeout', '500ms'],
      ['remote_connect_timeout', '1d'],
      ['mrql_default_limit', '0'],
      ['hash_similarity_threshold', '12'],
      ['hash_ahash_threshold', '3K'],
      ['max_upload_size', '12'],
      ['share_public_url', 'ftp://x'],
      ['docs_site_base_url', ''],
      ['download_cockpit_limit', 'many'],
    ];
    for (const [key, value] of bad) expect((await lib.json('PUT', `/v1/admin/settings/${key}`, { value })).status, `${key}=${value}`).toBe(400);
    expect((await lib.json('PUT', '/v1/admin/settings/not_a_setting', { value: '1' })).status).toBe(404);
    expect((await lib.json('DELETE', '/v1/admin/settings/not_a_setting')).status).toBe(404);
  });

  it('resets to the boot default and stores overrides in their envelope', async () => {
    const reset = await lib.json<View>('DELETE', '/v1/admin/settings/remote_idle_timeout');
    expect(reset.body).toMatchObject({ current: 60e9, overridden: false });
    const logs = await lib.json<{ logs: { action: string }[] }>('GET', '/v1/logs?EntityType=runtime_setting&Action=reset');
    expect(logs.body.logs).toHaveLength(1);
    // What the next start reads back, through the repository start-up reads with.
    const stored = new SettingsRepository(lib.lib.db, lib.lib.dialect);
    const row = (await stored.all()).find((r) => r.key === 'share_public_url');
    expect(JSON.parse(row!.value_json)).toEqual({ type: 'string', value: 'https://share.example.org' });
    const next = new RuntimeSettings(stored, bootSettings(lib.lib.config));
    await next.load();
    expect(next.get('share_public_url')).toBe('https://share.example.org');
    expect(next.get('max_upload_size')).toBe(0);
    expect(next.get('remote_idle_timeout')).toBe(60e9);
  });
});
