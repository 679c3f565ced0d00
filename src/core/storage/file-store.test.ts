import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore, makeDirectory, makeDirectoryDurably, renameDurably, syncDir, writeFileAtomic } from './file-store.js';

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

describe('renameDurably', () => {
  it('makes the missing folders, moves the file, and places again after a known folder was removed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-rename-'));
    writeFileSync(join(dir, 'a.part'), 'first');
    await renameDurably(join(dir, 'a.part'), join(dir, 'x', 'y', 'a'));
    expect(readFileSync(join(dir, 'x', 'y', 'a'), 'utf8')).toBe('first');
    expect(existsSync(join(dir, 'a.part'))).toBe(false);

    // The folder is remembered as existing; pruned since, the placement makes it again.
    rmSync(join(dir, 'x'), { recursive: true });
    writeFileSync(join(dir, 'b.part'), 'second');
    await renameDurably(join(dir, 'b.part'), join(dir, 'x', 'y', 'b'));
    expect(readFileSync(join(dir, 'x', 'y', 'b'), 'utf8')).toBe('second');
  });

  it('reports every folder that gained an entry when folders are made, so each is fsynced', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-mkdir-'));
    // Two levels made: the root gained "p", "p" gained "q".
    expect((await makeDirectory(join(dir, 'p', 'q'))).sort()).toEqual([dir, join(dir, 'p')].sort());
    // One level made under an existing folder: only that folder gained an entry.
    expect(await makeDirectory(join(dir, 'p', 'r'))).toEqual([join(dir, 'p')]);
    // Nothing made: nothing to flush but the rename's own folder, which the caller syncs.
    mkdirSync(join(dir, 's'));
    expect(await makeDirectory(join(dir, 's'))).toEqual([]);
  });

  it('makes a folder durably for links and copies, again after it was removed, and leaves an existing one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-mkdir-durably-'));
    const leaf = join(dir, 'u', 'v', 'w');
    await makeDirectoryDurably(leaf);
    expect(statSync(leaf).isDirectory()).toBe(true);
    await expect(makeDirectoryDurably(leaf)).resolves.toBeUndefined();
    // Removed since (as clearing previews removes their folder): made again, not taken as known.
    rmSync(join(dir, 'u'), { recursive: true });
    await makeDirectoryDurably(leaf);
    expect(statSync(leaf).isDirectory()).toBe(true);
    await writeFileAtomic(join(leaf, 'f'), Buffer.from('bytes'));
    expect(readFileSync(join(leaf, 'f'), 'utf8')).toBe('bytes');
  });
});
