import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobStore, BlobTooLargeError } from './blobs.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new BlobStore(dir);

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}

describe('blob store', () => {
  it('stages while hashing and places the bytes under their SHA-256', async () => {
    const staged = await store.stage(chunks('hello', ' ', 'world'), 100);
    expect(staged.hash).toBe('b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9');
    expect([staged.size, staged.head.toString()]).toEqual([11, 'hello world']);
    await store.commit(staged, async () => undefined, () => true);
    expect(readFileSync(store.pathOf(staged.hash), 'utf8')).toBe('hello world');
    expect(store.pathOf(staged.hash)).toBe(join(dir, 'blobs', 'sha256', 'b9', '4d', staged.hash));
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('refuses content over the limit and leaves no temp file', async () => {
    await expect(store.stage(chunks('12345', '6'), 5)).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('removes a placed blob again when the row write fails', async () => {
    const staged = await store.stage(chunks('row write fails'), 100);
    await expect(store.commit(staged, async () => { throw new Error('database is locked'); }, () => false)).rejects.toThrow('database is locked');
    expect(existsSync(store.pathOf(staged.hash))).toBe(false);
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('keeps an existing blob when the same bytes arrive again, and releases only unreferenced blobs', async () => {
    const a = await store.stage(chunks('twice'), 100);
    await store.commit(a, async () => undefined, () => true);
    const b = await store.stage(chunks('twice'), 100);
    await store.commit(b, async () => undefined, () => true);
    expect(readdirSync(store.tmpDir)).toEqual([]);
    await store.release([a.hash], () => true);
    expect(existsSync(store.pathOf(a.hash))).toBe(true);
    await store.release([a.hash], () => false);
    expect(existsSync(store.pathOf(a.hash))).toBe(false);
  });

  it('serves byte ranges', async () => {
    const staged = await store.stage(chunks('0123456789'), 100);
    await store.commit(staged, async () => undefined, () => true);
    const read = async (range?: { start: number; end: number }) => {
      const out: Buffer[] = [];
      for await (const c of store.read(staged.hash, range)) out.push(c as Buffer);
      return Buffer.concat(out).toString();
    };
    expect(await read()).toBe('0123456789');
    expect(await read({ start: 2, end: 4 })).toBe('234');
  });

  it('rejects anything but a hex hash as a path', () => {
    expect(() => store.pathOf('../../etc/passwd')).toThrow();
  });
});

describe('collection hold', () => {
  it('defers deletions while held and checks them again on release', async () => {
    const staged = await store.stage(chunks('held bytes'), 100);
    await store.commit(staged, async () => undefined, () => true);
    let referenced = false;
    const release = store.holdCollection();
    await store.release([staged.hash], () => referenced);
    expect(existsSync(store.pathOf(staged.hash))).toBe(true);
    const second = store.holdCollection();
    await release();
    expect(existsSync(store.pathOf(staged.hash))).toBe(true);
    await second();
    expect(existsSync(store.pathOf(staged.hash))).toBe(false);
    referenced = true;
  });

  it('places staged bytes without a row, and collects everything unreferenced on demand', async () => {
    const a = await store.stage(chunks('placed a'), 100);
    const b = await store.stage(chunks('placed b'), 100);
    await store.place(a);
    await store.place(b);
    expect(store.exists(a.hash) && store.exists(b.hash)).toBe(true);
    await store.collectAll((h) => h === a.hash);
    expect([store.exists(a.hash), store.exists(b.hash)]).toEqual([true, false]);
  });
});
