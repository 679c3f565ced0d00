// Issue 12, defect 6: a file placed without its row (a kill -9 between the rename and COMMIT)
// and stale upload parts are removed by reconciliation: at start-up, periodically and from the
// admin page, after the grace period, with a dry-run report first. Files that rows reference,
// young files and files outside the content area are kept.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../../../src/core/storage/reconcile.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { postMultipart } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';

const HOUR_AGO = new Date(Date.now() - 2 * 3_600_000);

/** A complete content-addressed file with no row, as a crash after the rename leaves it. */
function strayContent(lib: TestLibrary, text: string, old = true): string {
  const sha1 = createHash('sha1').update(text).digest('hex');
  const location = `/resources/${sha1.slice(0, 2)}/${sha1.slice(2, 4)}/${sha1.slice(4, 6)}/${sha1}.txt`;
  const path = join(lib.dir, 'files', location);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (old) utimesSync(path, HOUR_AGO, HOUR_AGO);
  return location;
}

describe('file reconciliation (library)', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await startTestLibrary();
  });
  afterAll(async () => {
    await lib.close();
  });

  const onDisk = (location: string) => existsSync(join(lib.dir, 'files', location));

  it('removes an orphan left by a crash when the server starts again', async () => {
    const kept = await uploadResource(lib, 'kept.txt', 'kept bytes');
    utimesSync(join(lib.dir, 'files', kept.Location), HOUR_AGO, HOUR_AGO);
    const orphan = strayContent(lib, 'bytes whose row never committed');
    mkdirSync(join(lib.dir, 'files', '.tmp'), { recursive: true });
    writeFileSync(join(lib.dir, 'files', '.tmp', '1-abc.part'), 'half an upload');
    writeFileSync(join(lib.dir, 'files', 'resources', 'notes-of-the-owner.txt'), 'not ours');
    lib = await lib.restart();
    expect(onDisk(orphan)).toBe(false);
    expect(existsSync(join(lib.dir, 'files', '.tmp', '1-abc.part'))).toBe(false);
    expect(onDisk(kept.Location)).toBe(true);
    expect(onDisk('/resources/notes-of-the-owner.txt')).toBe(true);
    expect(await (await lib.fetch(`/files${kept.Location}`)).text()).toBe('kept bytes');
  });

  it('reports first (dry run), then removes on request; young and referenced files stay', async () => {
    const r = await uploadResource(lib, 'versioned.txt', 'version one');
    const v2 = await postMultipart(lib, `/v1/resource/versions?resourceId=${r.ID}`, 'file', [{ name: 'versioned.txt', data: Buffer.from('version two') }]);
    expect(v2.status, JSON.stringify(v2.body)).toBeLessThan(300);
    utimesSync(join(lib.dir, 'files', r.Location), HOUR_AGO, HOUR_AGO);
    const orphan = strayContent(lib, 'an old orphan of 27 bytes!!');
    const young = strayContent(lib, 'a young orphan', false);
    mkdirSync(join(lib.dir, 'files', '.tmp'), { recursive: true });
    const part = join(lib.dir, 'files', '.tmp', '2-def.part');
    writeFileSync(part, 'stale part');
    utimesSync(part, HOUR_AGO, HOUR_AGO);

    const dry = await lib.json<ReconcileReport>('GET', '/v1/admin/reconcile');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, orphans: { count: 1, bytes: 27 }, young: 1, tempParts: { count: 1, bytes: 10 }, removed: { files: 0 } });
    expect(dry.body.orphans.files).toEqual([expect.objectContaining({ store: 'main', key: orphan, size: 27 })]);
    expect(onDisk(orphan)).toBe(true);

    const page = await lib.fetch('/admin/storage');
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(orphan);
    expect(html).toContain('27 B');
    expect(html).toContain('action="/v1/admin/reconcile"');

    const run = await lib.fetch('/v1/admin/reconcile', { method: 'POST', headers: { accept: 'text/html' } });
    expect(run.status).toBe(303);
    const next = run.headers.get('location')!;
    expect(next).toMatch(/^\/admin\/storage\?removed=1&/);
    expect(await (await lib.fetch(next)).text()).toMatch(/Reconciliation ran: removed 1 unreferenced file \(27 B\) and 1 stale upload part/);

    expect(onDisk(orphan)).toBe(false);
    expect(existsSync(part)).toBe(false);
    expect(onDisk(young)).toBe(true);
    expect(onDisk(r.Location)).toBe(true);
    const versions = await lib.json<{ id: number; location?: string }[]>('GET', `/v1/resource/versions?resourceId=${r.ID}`);
    expect(versions.body.length).toBe(2);
    for (const v of versions.body) {
      const file = await lib.fetch(`/v1/resource/version/file?versionId=${v.id}`);
      expect(file.status).toBe(200);
      expect(['version one', 'version two']).toContain(await file.text());
    }
    const again = await lib.json<ReconcileReport>('POST', '/v1/admin/reconcile');
    expect(again.body).toMatchObject({ dryRun: false, orphans: { count: 0 }, removed: { files: 0, tempParts: 0 } });
    expect(readFileSync(join(lib.dir, 'files', r.Location), 'utf8')).toBe('version one');
  });
});
