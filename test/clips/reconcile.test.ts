// Issue 12, defect 6 for the clip service: blobs no clip refers to (a kill -9 between the
// rename and the row insert) and stale upload parts are removed by reconciliation — at
// start-up, on every cleanup cycle and on an admin's request — once older than
// -orphan-grace-ms; GET /admin/reconcile is the dry-run report.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../../src/core/storage/reconcile.js';
import { startTestClips, type ClipJson, type TestClips } from './helper.js';

const LONG_AGO = new Date(Date.now() - 2 * 3_600_000);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('blob reconciliation', () => {
  let t: TestClips;
  beforeAll(async () => {
    t = await startTestClips();
  });
  afterAll(async () => {
    await t.close();
  });

  const stray = (text: string, old = true) => {
    const path = t.svc.ctx.blobs.pathOf(sha256(text));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    if (old) utimesSync(path, LONG_AGO, LONG_AGO);
    return path;
  };

  it('reports, then removes unreferenced blobs and stale parts; referenced and young ones stay', async () => {
    const clip = (await t.upload<ClipJson>(t.admin, { filename: 'kept.txt', type: 'text/plain', data: 'kept clip bytes' })).body;
    const kept = t.svc.ctx.blobs.pathOf(sha256('kept clip bytes'));
    utimesSync(kept, LONG_AGO, LONG_AGO);
    const orphan = stray('twenty bytes orphan!');
    const young = stray('young orphan', false);
    const part = join(t.svc.ctx.blobs.tmpDir, 'abc.part');
    writeFileSync(part, 'stale');
    utimesSync(part, LONG_AGO, LONG_AGO);

    const dry = await t.req<ReconcileReport>(t.admin, 'GET', '/admin/reconcile');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, orphans: { count: 1, bytes: 20 }, young: 1, tempParts: { count: 1, bytes: 5 }, removed: { files: 0 } });
    expect(dry.body.orphans.files).toEqual([expect.objectContaining({ store: 'blobs', key: sha256('twenty bytes orphan!'), size: 20 })]);
    expect(existsSync(orphan)).toBe(true);

    const viewer = await t.key('viewer', 'viewer');
    expect((await t.req(viewer, 'GET', '/admin/reconcile')).status).toBe(403);
    const tag = (await t.req<{ id: number }>(t.admin, 'POST', '/tags', { name: 'scope' })).body;
    const scopedAdmin = await t.key('scoped', 'admin', tag.id);
    expect((await t.req(scopedAdmin, 'POST', '/admin/reconcile')).status).toBe(403);
    expect(existsSync(orphan)).toBe(true);

    const run = await t.req<ReconcileReport>(t.admin, 'POST', '/admin/reconcile');
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ dryRun: false, removed: { files: 1, bytes: 20, tempParts: 1 } });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(part)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(kept)).toBe(true);
    expect((await t.raw(t.admin, 'GET', `/clips/${clip.id}/data`)).text).toBe('kept clip bytes');
  });

  it('the periodic cleanup cycle reconciles too', async () => {
    const orphan = stray('left by a crash after start');
    await t.svc.cleanup.runOnce();
    expect(existsSync(orphan)).toBe(false);
  });
});

describe('blob reconciliation without a grace period', () => {
  it('with -orphan-grace-ms 0, the next cycle removes a fresh orphan', async () => {
    const t = await startTestClips(['--orphan-grace-ms', '0']);
    try {
      const path = t.svc.ctx.blobs.pathOf(sha256('just now'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'just now');
      await t.svc.cleanup.runOnce();
      expect(existsSync(path)).toBe(false);
    } finally {
      await t.close();
    }
  });
});
