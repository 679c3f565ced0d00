// Issue 12, defects 4 and 5: stored files are reachable only through the one resolver, which
// refuses backslashes, encoded separators, dot segments, private folders and symlinks that
// leave the root, for /files/…, the alternative filesystems and LocalPath registration alike.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { uploadResource } from '../../helpers/uploads.js';

/** GET with the path sent byte for byte (fetch would turn a backslash into a slash). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url + '/', { path, method: 'GET', headers: { accept: 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('files are served only through the resolver', () => {
  let lib: TestLibrary;
  let outside: string;
  let altRoot: string;
  let files: string;

  beforeAll(async () => {
    outside = mkdtempSync(join(tmpdir(), 'stacks-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET OUTSIDE');
    altRoot = mkdtempSync(join(tmpdir(), 'stacks-alt-'));
    lib = await startTestLibrary(['-alt-fs', `archive:${altRoot}`]);
    files = join(lib.dir, 'files');
    const privates: Record<string, string> = {
      '_exports/job1.tar': 'EXPORT ARCHIVE',
      '_imports/upload-1/archive.tar': 'IMPORT STAGING',
      'deleted/deleted/abc__1__nil___x.txt': 'DELETED BACKUP',
      '.tmp/123-abc.part': 'IN FLIGHT',
      '.previews/1/100x100.jpg': 'PREVIEW',
      'inbox/_drafts/a.txt': 'PRIVATE FOLDER',
    };
    for (const [rel, text] of Object.entries(privates)) {
      mkdirSync(join(files, rel, '..'), { recursive: true });
      writeFileSync(join(files, rel), text);
    }
    mkdirSync(join(altRoot, '_exports'), { recursive: true });
    writeFileSync(join(altRoot, '_exports', 'job2.tar'), 'ALT EXPORT');
    mkdirSync(join(files, 'inbox'), { recursive: true });
    writeFileSync(join(files, 'inbox', 'ok.txt'), 'fine');
    symlinkSync(join(outside, 'secret.txt'), join(files, 'inbox', 'link.txt'));
    symlinkSync(outside, join(files, 'outdir'));
    symlinkSync(join(files, 'inbox', 'ok.txt'), join(files, 'inbox', 'inner-link.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(altRoot, 'alt-link.txt'));
  });
  afterAll(async () => {
    await lib.close();
    rmSync(outside, { recursive: true, force: true });
    rmSync(altRoot, { recursive: true, force: true });
  });

  it('still serves stored and registered files', async () => {
    const r = await uploadResource(lib, 'plain.txt', 'plain bytes');
    const res = await lib.fetch(`/files${r.Location}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('plain bytes');
    expect((await lib.fetch('/files/inbox/ok.txt')).status).toBe(200);
  });

  const refused = [
    '/files/%5C_exports%5Cjob1.tar',
    '/files/%255C_exports%255Cjob1.tar',
    '/files/inbox%5C..%5C_exports%5Cjob1.tar',
    '/files/inbox/..%5C_exports/job1.tar',
    '/files/inbox%2F..%2F_exports%2Fjob1.tar',
    '/files/inbox%252F..%252F_exports%252Fjob1.tar',
    '/files/%2E%2E/_exports/job1.tar',
    '/files/inbox/%2e%2e/_exports/job1.tar',
    '/files/_exports/job1.tar',
    '/files/%5F%65xports/job1.tar',
    '/files/%5C_imports%5Cupload-1%5Carchive.tar',
    '/files/%5Cdeleted%5Cdeleted%5Cabc__1__nil___x.txt',
    '/files/deleted/deleted/abc__1__nil___x.txt',
    '/files/%5C.tmp%5C123-abc.part',
    '/files/%255C.tmp%255C123-abc.part',
    '/files/.previews/1/100x100.jpg',
    '/files/%5C.previews%5C1%5C100x100.jpg',
    '/files/inbox/_drafts/a.txt',
    '/files/inbox%00/ok.txt',
    '/archive/%5C_exports%5Cjob2.tar',
    '/archive/_exports/job2.tar',
  ];
  it.each(refused)('refuses %s', async (path) => {
    const res = await rawGet(lib.url, path);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).not.toMatch(/EXPORT|IMPORT STAGING|DELETED BACKUP|IN FLIGHT|PREVIEW|PRIVATE FOLDER/);
  });

  it('refuses a literal backslash in the path', async () => {
    const res = await rawGet(lib.url, '/files/\\_exports\\job1.tar');
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('EXPORT');
  });

  it('does not follow symlinks out of the root, nor a symlink as the file itself', async () => {
    for (const path of ['/files/inbox/link.txt', '/files/outdir/secret.txt', '/files/inbox/inner-link.txt', '/archive/alt-link.txt']) {
      const res = await rawGet(lib.url, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('SECRET');
    }
  });

  it('LocalPath registration uses the same checks', async () => {
    for (const LocalPath of ['inbox/link.txt', 'outdir/secret.txt', 'inbox\\ok.txt', '\\_exports\\job1.tar', 'inbox/_drafts/a.txt', 'inbox/../_exports/job1.tar', '_exports/job1.tar']) {
      const r = await lib.json<{ error: string }>('POST', '/v1/resource/local', { LocalPath });
      expect(r.status, LocalPath).toBe(400);
      expect(r.body.error, LocalPath).toBeTruthy();
    }
    const alt = await lib.json('POST', '/v1/resource/local', { LocalPath: 'alt-link.txt', PathName: 'archive' });
    expect(alt.status).toBe(400);
    const ok = await lib.json<{ Location: string }>('POST', '/v1/resource/local', { LocalPath: 'inbox/ok.txt' });
    expect(ok.status).toBe(200);
    expect(ok.body.Location).toBe('/inbox/ok.txt');
  });
});
