// Where the filesystem cannot be flushed at once (no `sync -f`: another platform, a missing
// command, an I/O error), the journal's files are made durable one fsync at a time: the file,
// its folder and the folder above, and the blob root.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ files: [] as string[], dirs: [] as string[] }));
vi.mock('../../core/storage/file-store.js', async (original) => {
  const real = await original<typeof import('../../core/storage/file-store.js')>();
  return {
    ...real,
    syncFilesystem: async () => false,
    syncFile: async (path: string) => {
      calls.files.push(path);
      await real.syncFile(path);
    },
    syncDir: async (path: string) => {
      calls.dirs.push(path);
      await real.syncDir(path);
    },
  };
});

const { BlobStore } = await import('./blobs.js');
const dir = mkdtempSync(join(tmpdir(), 'stacks-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('making journaled blobs durable without a filesystem flush', () => {
  it('fsyncs each file, the two folders above it and the blob root', async () => {
    const blobs = new BlobStore(dir);
    const staged = await blobs.stageBytes(Buffer.from('fsynced one by one'), 1024);
    await blobs.commit(staged, async () => undefined, () => true, { journaled: true });
    expect(calls.files).toEqual([]);
    await blobs.makeDurable([staged.hash, 'f'.repeat(64)]);
    const path = blobs.pathOf(staged.hash);
    expect(calls.files).toEqual([path]);
    expect(calls.dirs.sort()).toEqual([blobs.blobDir, dirname(path), dirname(dirname(path))].sort());
  });
});
