// Clipboard copies (companion §11, test cases T201–T205): the real X11 clipboard under Xvfb
// with xclip, PNG conversion, file references to leased temp copies and their pruning, the
// checks in their order, the 501 of a server without a display, and the Wayland and xsel
// invocations through stand-in programs.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';
import { pasteEventually, startXvfb, x11Available, type Xvfb } from './xvfb.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const scratch = mkdtempSync(join(tmpdir(), 'stacks-clipboard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!x11Available)('on an X11 host', () => {
  let x: Xvfb;
  let t: TestClips;
  let f: FixtureF;
  let jpeg: ClipJson;
  beforeAll(async () => {
    x = await startXvfb();
    t = await startTestClips([], {}, { PATH: process.env.PATH, DISPLAY: x.display });
    f = await fixtureF(t);
    const bytes = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#c00' } }).jpeg().toBuffer();
    jpeg = (await t.upload(f.KE, { filename: 'photo.jpg', type: 'image/jpeg', data: bytes })).body;
  });
  afterAll(async () => {
    await t?.close();
    await x?.stop();
  });

  it('copies text (T201)', async () => {
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 1 })).status).toBe(204);
    expect((await pasteEventually(x.display, 'UTF8_STRING', (b) => b.toString() === 'hello world')).toString()).toBe('hello world');
  });

  it('copies images as PNG: converted (T202), or as they are when already PNG', async () => {
    expect(jpeg.id).toBe(4);
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 4 })).status).toBe(204);
    const out = await pasteEventually(x.display, 'image/png', (b) => b.subarray(0, 8).equals(PNG_SIGNATURE));
    expect(out.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(await sharp(out).metadata()).toMatchObject({ format: 'png', width: 3, height: 2 });
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 2 })).status).toBe(204);
    expect((await pasteEventually(x.display, 'image/png', (b) => b.equals(f.pngBytes))).equals(f.pngBytes)).toBe(true);
  });

  it('copies a file reference to a temp copy (T203), and several with bulk/copy', async () => {
    expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 1 })).status).toBe(204);
    const file = join(t.dataDir, 'clip_temp_files', '1_notes.txt');
    const one = `file://${file}\r\n`;
    expect((await pasteEventually(x.display, 'text/uri-list', (b) => b.toString() === one)).toString()).toBe(one);
    expect(readFileSync(file, 'utf8')).toBe('hello world');

    expect((await t.req(f.KE, 'POST', '/clips/bulk/copy', { ids: [1, 4, 999] })).status).toBe(204);
    const two = `file://${file}\r\nfile://${join(t.dataDir, 'clip_temp_files', '4_photo.jpg')}\r\n`;
    expect((await pasteEventually(x.display, 'text/uri-list', (b) => b.toString() === two)).toString()).toBe(two);
    expect((await t.req(f.KE, 'POST', '/clips/bulk/copy', { ids: [999] })).status).toBe(404);
    expect((await t.req(f.KSE, 'POST', '/clips/bulk/copy', { ids: [1, 2] })).status).toBe(403);
  });

  it('checks role, scope, existence, body and type in that order (T205)', async () => {
    expect((await t.req(f.KV, 'POST', '/clipboard/copy', { clip_id: 1 })).status).toBe(403);
    expect(await t.req(f.KSE, 'POST', '/clipboard/copy', { clip_id: 2 })).toMatchObject({ status: 403, body: { error: 'forbidden: clip not in scoped tag' } });
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 999 })).status).toBe(404);
    expect(await t.req(f.KE, 'POST', '/clipboard/copy', {})).toMatchObject({ status: 400, body: { error: 'clip_id is required' } });
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: '1' })).status).toBe(400);
    expect(await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 3 })).toMatchObject({ status: 400, body: { error: 'unsupported content type for clipboard copy: application/pdf' } });
    expect((await t.req(f.KSE, 'POST', '/clipboard/copy', { clip_id: 1 })).status).toBe(204);
    // A PDF can still be copied as a file.
    expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 3 })).status).toBe(204);
  });

  it('leases temp copies for 60 minutes from their last use, then prunes them', async () => {
    const file = join(t.dataDir, 'clip_temp_files', '2_shot.png');
    expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 2 })).status).toBe(204);
    t.clock.advance(50 * 60_000);
    expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 2 })).status).toBe(204);
    t.clock.advance(20 * 60_000);
    await t.svc.cleanup.runOnce();
    expect(existsSync(file)).toBe(true);
    t.clock.advance(41 * 60_000);
    await t.svc.cleanup.runOnce();
    expect(existsSync(file)).toBe(false);
  });

  it('drops a temp copy when its clip is deleted', async () => {
    const clip = (await t.upload(f.KE, { filename: 'gone.txt', data: 'soon gone' })).body;
    await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: clip.id });
    const file = join(t.dataDir, 'clip_temp_files', `${clip.id}_gone.txt`);
    expect(existsSync(file)).toBe(true);
    await t.req(f.KE, 'DELETE', `/clips/${clip.id}`);
    for (let i = 0; i < 40 && existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
    expect(existsSync(file)).toBe(false);
  });
});

describe('without a display', () => {
  let t: TestClips;
  let f: FixtureF;
  beforeAll(async () => {
    t = await startTestClips();
    f = await fixtureF(t);
  });
  afterAll(async () => t?.close());

  it('answers 501 (T204), after the body, scope and existence checks', async () => {
    for (const path of ['/clipboard/copy', '/clipboard/copy-file']) {
      expect(await t.req(f.KE, 'POST', path, { clip_id: 1 })).toMatchObject({ status: 501, body: { error: 'clipboard not available on this server' } });
    }
    expect((await t.req(f.KE, 'POST', '/clips/bulk/copy', { ids: [1] })).status).toBe(501);
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 999 })).status).toBe(404);
    expect((await t.req(f.KSE, 'POST', '/clipboard/copy', { clip_id: 2 })).status).toBe(403);
    expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 3 })).status).toBe(501);
  });
});

describe('backend choice and invocation', () => {
  /**
   * A stand-in clipboard program that records its arguments and input. Its folder is the whole
   * PATH of the service (so no real clipboard program is found), hence absolute tool paths.
   */
  function fakeProgram(name: string, body = 'printf "%s\\n" "$@" > "$OUT.args"; /bin/cat > "$OUT.data"'): string {
    const dir = mkdtempSync(join(scratch, `${name}-`));
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
    return dir;
  }

  async function withService(env: NodeJS.ProcessEnv, run: (t: TestClips, f: FixtureF) => Promise<void>) {
    const t = await startTestClips([], {}, env);
    try {
      await run(t, await fixtureF(t));
    } finally {
      await t.close();
    }
  }

  it('uses wl-copy under Wayland, with the MIME type of what it copies', async () => {
    const out = join(scratch, 'wl');
    await withService({ PATH: fakeProgram('wl-copy'), WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0', OUT: out }, async (t, f) => {
      expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 1 })).status).toBe(204);
      expect([readFileSync(`${out}.args`, 'utf8'), readFileSync(`${out}.data`, 'utf8')]).toEqual(['--type\ntext/plain;charset=utf-8\n', 'hello world']);
      expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 1 })).status).toBe(204);
      expect(readFileSync(`${out}.args`, 'utf8')).toBe('--type\ntext/uri-list\n');
      expect(readFileSync(`${out}.data`, 'utf8')).toBe(`file://${join(t.dataDir, 'clip_temp_files', '1_notes.txt')}\r\n`);
    });
  });

  it('falls back to xsel for text only', async () => {
    const out = join(scratch, 'xsel');
    await withService({ PATH: fakeProgram('xsel'), DISPLAY: ':0', OUT: out }, async (t, f) => {
      expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 1 })).status).toBe(204);
      expect([readFileSync(`${out}.args`, 'utf8'), readFileSync(`${out}.data`, 'utf8')]).toEqual(['--clipboard\n--input\n', 'hello world']);
      expect((await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 2 })).status).toBe(501);
      expect((await t.req(f.KE, 'POST', '/clipboard/copy-file', { clip_id: 1 })).status).toBe(501);
    });
  });

  it('answers 500 with the program error, and gives up after 5 seconds', async () => {
    await withService({ PATH: fakeProgram('xclip', '/bin/cat > /dev/null; echo "cannot open display" >&2; exit 1'), DISPLAY: ':0' }, async (t, f) => {
      expect(await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 1 })).toMatchObject({ status: 500, body: { error: 'failed to copy to clipboard: cannot open display' } });
    });
    await withService({ PATH: fakeProgram('xclip', 'exec /bin/sleep 30'), DISPLAY: ':0' }, async (t, f) => {
      expect(await t.req(f.KE, 'POST', '/clipboard/copy', { clip_id: 1 })).toMatchObject({ status: 500, body: { error: 'failed to copy to clipboard: xclip did not finish within 5 s' } });
    });
  });
});
