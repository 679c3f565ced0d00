// The reference speed of the upload benchmarks (clips, library uploads): a user-space copy on
// the same disk, read in chunks, written, fsynced before the file counts as stored — the least
// any upload that streams to disk durably has to do.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

async function writeSource(path: string, size: number): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 7);
  const out = createWriteStream(path);
  for (let left = size; left > 0; left -= chunk.length) if (!out.write(chunk.subarray(0, Math.min(left, chunk.length)))) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
}

async function copyWithFsync(src: string, dst: string): Promise<void> {
  const handle = await open(dst, 'w');
  for await (const piece of createReadStream(src)) await handle.write(piece as Buffer);
  await handle.sync();
  await handle.close();
}

/** MB/s of `files` concurrent plain copies of `size` bytes each, with fsync, inside `dir`. */
export async function plainCopyMBps(dir: string, size: number, files = 1): Promise<number> {
  const names = Array.from({ length: files }, (_, i) => join(dir, `copy-src-${i}.bin`));
  for (const src of names) await writeSource(src, size);
  const start = performance.now();
  await Promise.all(names.map((src) => copyWithFsync(src, `${src}.copy`)));
  const seconds = (performance.now() - start) / 1000;
  for (const src of names) {
    rmSync(src);
    rmSync(`${src}.copy`);
  }
  return +((files * size) / 1e6 / seconds).toFixed(1);
}
