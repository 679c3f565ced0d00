import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore, syncDir } from './file-store.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileStore.placeCopy', () => {
  it('places the bytes and leaves the source where it was, with a fresh modification time', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-file-store-'));
    const store = new FileStore(join(dir, 'root'));
    const source = join(dir, 'blob');
    writeFileSync(source, 'archive bytes');
    const old = new Date(Date.now() - 86_400_000);
    utimesSync(source, old, old);

    expect(await store.placeCopy(source, '/resources/ab/cd/ef/abcdef.bin')).toBe(true);
    const placed = store.resolve('/resources/ab/cd/ef/abcdef.bin');
    expect(readFileSync(placed, 'utf8')).toBe('archive bytes');
    expect(readFileSync(source, 'utf8')).toBe('archive bytes');
    expect(Date.now() - statSync(placed).mtimeMs).toBeLessThan(3_600_000);

    // Content-addressed: an existing file is kept, and the source still stays.
    expect(await store.placeCopy(source, '/resources/ab/cd/ef/abcdef.bin')).toBe(false);
    expect(readFileSync(source, 'utf8')).toBe('archive bytes');
  });
});

describe('syncDir', () => {
  it('flushes an existing directory and throws when the directory is not there', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-syncdir-'));
    await expect(syncDir(dir)).resolves.toBeUndefined();
    // A failure that is not "unsupported here" must reach the caller, which then does not
    // acknowledge the rename (it used to be swallowed with every other error).
    await expect(syncDir(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
