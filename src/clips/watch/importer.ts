// Imports files of watch folders (companion §7.3, §7.5): one file at a time per path, its folder
// re-read from the database first, the bytes streamed into the blob store (never whole in
// memory), a new clip row every time (no dedup), auto-archive and auto-tag in the same
// transaction, and the source deleted only after the commit.
import { createReadStream, type Stats } from 'node:fs';
import { lstat, opendir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import { typeFromExtension } from '../clips/content-type.js';
import { MAX_CLIP_BYTES, type ClipService } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import { BlobTooLargeError } from '../storage/blobs.js';
import type { TagRepository } from '../tags/repository.js';
import { fileMatches, isHidden, type FilterMode } from './filters.js';
import type { WatchRepository, WatchRow } from './repository.js';

/** 'watch': an event or the scan after creation, which honour pauses; 'explicit': POST /process. */
export type ImportMode = 'watch' | 'explicit';
/** 'unsettled': the file was still being written (or is too fresh); a later attempt takes it. */
export type ImportOutcome = 'imported' | 'skipped' | 'failed' | 'unsettled';

const READ_CHUNK = 1024 * 1024;

export function folderFilter(row: WatchRow) {
  let presets: unknown = [];
  try {
    presets = JSON.parse(row.filter_presets);
  } catch {
    /* a damaged value filters nothing in */
  }
  return {
    filter_mode: row.filter_mode as FilterMode,
    filter_presets: Array.isArray(presets) ? presets.filter((p): p is string => typeof p === 'string') : [],
    filter_regex: row.filter_regex,
  };
}

const changed = (a: Stats, b: Stats) => a.size !== b.size || a.mtimeMs !== b.mtimeMs || a.ino !== b.ino;

export class WatchImporter {
  /** One import per path at a time: an event and a scan meeting on one file import it once. */
  private readonly paths = new KeyedLock();

  constructor(
    private readonly ctx: ClipContext,
    private readonly clips: ClipService,
    private readonly repo: WatchRepository,
    private readonly tags: TagRepository,
    private readonly log: (msg: string) => void,
  ) {}

  /** `quietMs`: leave a file modified less than this long ago (a scan standing in for events). */
  importFile(folderId: number, path: string, mode: ImportMode, quietMs = 0): Promise<ImportOutcome> {
    return this.paths.with(path, () => this.importLocked(folderId, path, mode, quietMs));
  }

  private fail(path: string, reason: string): ImportOutcome {
    this.log(`watch import failed: ${path}: ${reason}`);
    return 'failed';
  }

  private async importLocked(folderId: number, path: string, mode: ImportMode, quietMs: number): Promise<ImportOutcome> {
    const folder = await this.repo.find(folderId);
    if (!folder) return 'skipped';
    if (mode === 'watch' && (folder.is_paused === 1 || (await this.repo.globalPaused()))) return 'skipped';
    const name = basename(path);
    if (dirname(path) !== folder.path || isHidden(name) || !fileMatches(folderFilter(folder), name)) return 'skipped';

    // Only regular files: directories, and links that could point anywhere, stay where they are.
    const before = await lstat(path).catch(() => null);
    if (!before?.isFile()) return 'skipped';
    if (before.size > MAX_CLIP_BYTES) return this.fail(path, 'file exceeds 100 MiB limit');
    if (quietMs > 0 && Date.now() - before.mtimeMs < quietMs) return 'unsettled';

    this.ctx.events.emit('watch:file_detected', { path, folder_id: folder.id });
    let staged;
    try {
      staged = await this.ctx.blobs.stage(createReadStream(path, { highWaterMark: READ_CHUNK }), MAX_CLIP_BYTES);
    } catch (e) {
      return this.fail(path, e instanceof BlobTooLargeError ? 'file exceeds 100 MiB limit' : (e as Error).message);
    }
    // A writer still busy with the file (pausing longer than the debounce) changed it while it
    // was read: drop this copy; its next change event brings the file back.
    const after = await lstat(path).catch(() => null);
    if (!after || changed(before, after)) {
      await this.ctx.blobs.discard(staged);
      return after ? 'unsettled' : 'skipped';
    }

    const tag = folder.auto_tag_id === null ? undefined : await this.tags.find(folder.auto_tag_id);
    let clipId: number;
    try {
      const made = await this.clips.createFromStaged(
        staged,
        { filename: name, declaredType: typeFromExtension(name) },
        { dedup: false, tag: tag ?? null, archived: folder.auto_archive === 1 },
      );
      clipId = made.clip.id;
    } catch (e) {
      return this.fail(path, (e as Error).message);
    }
    this.ctx.events.emit('watch:import_complete', { clip_id: clipId, source_path: path, folder_id: folder.id });

    try {
      const now = await lstat(path);
      if (changed(before, now)) this.log(`watch import: ${path} changed after it was imported as clip ${clipId}; left in place`);
      else await unlink(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`watch import: could not delete ${path} (clip ${clipId} kept): ${(e as Error).message}`);
    }
    return 'imported';
  }

  /**
   * The one-time scan (§7.5): the folder's direct regular files, dot-files left out, by name;
   * only their names are held, never their contents. One failing file does not stop it.
   * `only` narrows the names (a second pass); `settled` are the names this scan is done with,
   * `unsettled` those still being written.
   */
  async scan(
    folderId: number,
    mode: ImportMode,
    options: { stop?: () => boolean; only?: (name: string) => boolean; quietMs?: number } = {},
  ): Promise<{ settled: Set<string>; unsettled: string[]; imported: number; failed: number }> {
    const folder = await this.repo.find(folderId);
    const result = { settled: new Set<string>(), unsettled: [] as string[], imported: 0, failed: 0 };
    if (!folder) return result;
    const names: string[] = [];
    for await (const entry of await opendir(folder.path, { bufferSize: 256 })) {
      if (entry.isFile() && !isHidden(entry.name) && (options.only?.(entry.name) ?? true)) names.push(entry.name);
    }
    for (const name of names.sort()) {
      if (options.stop?.()) break;
      const outcome = await this.importFile(folderId, join(folder.path, name), mode, options.quietMs);
      if (outcome === 'unsettled') result.unsettled.push(name);
      else result.settled.add(name);
      if (outcome === 'imported') result.imported++;
      if (outcome === 'failed') result.failed++;
    }
    return result;
  }
}
