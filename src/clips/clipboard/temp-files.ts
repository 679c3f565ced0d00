// Clips materialised as files for copy-as-file (companion §11.2):
// <data>/clip_temp_files/<id>_<download name>, leased for 60 minutes from the last use (the
// file's modification time is the lease), pruned by the cleanup job, dropped when the clip's
// content changes, and emptied at shutdown and after a restore.
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { copyFileAtomic } from '../../core/storage/file-store.js';
import type { Clock } from '../clock.js';
import { idPrefixedName } from '../clips/filenames.js';
import type { BlobStore } from '../storage/blobs.js';

export const LEASE_MS = 60 * 60 * 1000;
/** File names are at most 255 bytes on common filesystems; stored names may be longer in UTF-8. */
const MAX_NAME_BYTES = 240;

/** Shortens a name to fit the filesystem, keeping its extension. */
export function fitName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = [...name.slice(0, name.length - ext.length)];
  while (Buffer.byteLength(stem.join('') + ext) > MAX_NAME_BYTES) stem = stem.slice(0, -1);
  return stem.join('') + ext;
}

export class ClipTempFiles {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.dir = join(dataDir, 'clip_temp_files');
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
  }

  /** The clip as a file of its own (a copy: editing it must never touch the stored bytes). */
  async materialise(clip: { id: number; filename: string; content_type: string; content_hash: string; size: number }): Promise<string> {
    const path = join(this.dir, fitName(idPrefixedName(clip)));
    const now = this.clock.now();
    const existing = await stat(path).catch(() => null);
    if (existing?.isFile() && existing.size === clip.size) {
      await utimes(path, now, now);
      return path;
    }
    await copyFileAtomic(this.blobs.pathOf(clip.content_hash), path);
    await utimes(path, now, now);
    return path;
  }

  /** Removes the files of one clip (its content changed). */
  async forget(clipId: number): Promise<void> {
    const prefix = `${clipId}_`;
    for (const name of await this.names()) if (name.startsWith(prefix)) await rm(join(this.dir, name), { force: true });
  }

  /** Cleanup step: files whose lease ran out. */
  async prune(): Promise<number> {
    const cutoff = this.clock.now().getTime() - LEASE_MS;
    let removed = 0;
    for (const name of await this.names()) {
      const path = join(this.dir, name);
      const st = await stat(path).catch(() => null);
      if (st && st.mtimeMs <= cutoff) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  async clear(): Promise<void> {
    for (const name of await this.names()) await rm(join(this.dir, name), { recursive: true, force: true });
  }

  private names(): Promise<string[]> {
    return readdir(this.dir).catch(() => []);
  }
}
