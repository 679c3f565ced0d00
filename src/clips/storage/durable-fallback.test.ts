// Where the filesystem cannot be flushed at once (no `sync -f`: another platform, a missing
// command, an I/O error), the journal's files are made durable one fsync at a time: the file,
// its folder and the folder above, and the blob root. The store is given calls that record
// what runs (and still do it), with the filesystem flush failing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncDir, syncFile } from '../../core/storage/file-store.js';
import { BlobStore } from './blobs.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const calls = { files: [] as string[], dirs: [] as string[], filesystem: 0 };
const blobs = new BlobStore(dir, {
  syncFilesystem: async () => {
    calls.filesystem++;
    return false;
  },
  syncFile: async (path) => {
    calls.files.push(path);
    await syncFile(path);
  },
  syncDir: async (path) => {
    calls.dirs.push(path);
    await syncDir(path);
  },
});

describe('making journaled blobs durable without a filesystem flush', () => {
  it('places a journaled blob without an fsync, then fsyncs the file, the two folders above it and the blob root', async () => {
    const staged = await blobs.stageBytes(Buffer.from('fsynced one by one'), 1024);
    await blobs.commit(staged, async () => undefined, () => true, { journaled: true });
    expect(calls).toEqual({ files: [], dirs: [], filesystem: 0 });
    await blobs.makeDurable([staged.hash, 'f'.repeat(64)]);
    const path = blobs.pathOf(staged.hash);
    expect(calls.filesystem).toBe(1);
    expect(calls.files).toEqual([path]);
    expect(calls.dirs.sort()).toEqual([blobs.blobDir, dirname(path), dirname(dirname(path))].sort());
  });

  it('fsyncs a blob staged for the journal but committed without one before its rename', async () => {
    const staged = await blobs.stageBytes(Buffer.from('committed the ordinary way'), 1024);
    calls.files.length = 0;
    await blobs.commit(staged, async () => undefined, () => true);
    expect(calls.files).toEqual([staged.tmpPath]);
  });
});
