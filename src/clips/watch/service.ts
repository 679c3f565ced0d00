// Watch-folder rules (companion §7.4): validation, the folder object with its live `exists`,
// partial updates with an immutable path, per-folder and global pause, status, and the
// explicit scan. Every change refreshes the running watchers.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { constraintFailure } from '../../core/db/constraint.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import { isoStamp, rfc3339 } from '../clock.js';
import type { ClipContext } from '../context.js';
import type { Json } from '../http/input.js';
import type { TagRepository } from '../tags/repository.js';
import { folderFilter } from './importer.js';
import { readFolderInput, type FolderInput } from './input.js';
import { isDirectory, type WatchManager } from './manager.js';
import type { WatchPatch, WatchRepository, WatchRow } from './repository.js';

export interface WatchFolderJson {
  id: number;
  path: string;
  filter_mode: string;
  filter_presets: string[];
  filter_regex: string;
  process_existing: boolean;
  auto_archive: boolean;
  auto_tag_id: number | null;
  is_paused: boolean;
  created_at: string;
  exists: boolean;
}

export interface WatchStatus {
  global_paused: boolean;
  active_count: number;
  total_count: number;
  is_watching: boolean;
}

export function folderJson(row: WatchRow): WatchFolderJson {
  return {
    id: row.id,
    path: row.path,
    filter_mode: row.filter_mode,
    filter_presets: folderFilter(row).filter_presets,
    filter_regex: row.filter_regex,
    process_existing: row.process_existing === 1,
    auto_archive: row.auto_archive === 1,
    auto_tag_id: row.auto_tag_id,
    is_paused: row.is_paused === 1,
    created_at: rfc3339(row.created_at),
    exists: isDirectory(row.path),
  };
}

const notWatched = () => notFound('watch folder not found');

function isWithin(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

export class WatchService {
  constructor(
    private readonly ctx: ClipContext,
    readonly repo: WatchRepository,
    private readonly tags: TagRepository,
    private readonly manager: WatchManager,
  ) {}

  async list(): Promise<{ folders: WatchFolderJson[]; total: number }> {
    const folders = (await this.repo.list()).map(folderJson);
    return { folders, total: folders.length };
  }

  private async require(id: number): Promise<WatchRow> {
    const row = await this.repo.find(id);
    if (!row) throw notWatched();
    return row;
  }

  async get(id: number): Promise<WatchFolderJson> {
    return folderJson(await this.require(id));
  }

  private async checkTag(input: FolderInput): Promise<void> {
    if (input.auto_tag_id !== undefined && input.auto_tag_id !== null && !(await this.tags.find(input.auto_tag_id))) throw badRequest('tag not found');
  }

  /** Creates the folder and starts watching it; the caller starts the scan once it has answered. */
  async create(body: Json): Promise<WatchFolderJson> {
    if (body.path === undefined || body.path === null) throw badRequest('path is required');
    const input = readFolderInput(body);
    const path = input.path!;
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw badRequest(`folder does not exist: ${path}`);
    }
    if (!isDir) throw badRequest(`not a directory: ${path}`);
    // Importing deletes the source files: the service's own data must never be a source,
    // neither by its path nor through a link.
    const dataDir = this.ctx.config.dataDir;
    if (isWithin(dataDir, path) || isWithin(realpathSync(dataDir), realpathSync(path))) throw badRequest('folder is inside the clip data directory');
    await this.checkTag(input);
    if (await this.repo.findByPath(path)) throw conflict('folder is already watched');
    let id: number;
    try {
      id = await this.repo.insert({
        path,
        filter_mode: input.filter_mode ?? 'all',
        filter_presets: JSON.stringify(input.filter_presets ?? []),
        filter_regex: input.filter_regex ?? '',
        process_existing: input.process_existing ? 1 : 0,
        auto_archive: input.auto_archive ? 1 : 0,
        auto_tag_id: input.auto_tag_id ?? null,
        is_paused: 0,
        created_at: isoStamp(this.ctx.clock.now()),
      });
    } catch (e) {
      // Two requests for the same path can both pass the check above; the unique index on path
      // decides, and the loser gets the same answer. Judged by the driver's error code
      // (SQLITE_CONSTRAINT_UNIQUE: the clip store is SQLite only), not its message text.
      if (constraintFailure(e)?.kind === 'unique') throw conflict('folder is already watched');
      throw e;
    }
    // With process_existing the watcher starts once the scan's first pass is done: watching a
    // folder full of files first would only set up a watch per file for the scan to undo.
    if (!input.process_existing) await this.manager.refresh();
    return this.get(id);
  }

  async update(id: number, body: Json): Promise<void> {
    const row = await this.require(id);
    const input = readFolderInput(body);
    if (input.path !== undefined && input.path !== row.path) throw badRequest('path cannot be changed');
    await this.checkTag(input);
    const patch: WatchPatch = {};
    if (input.filter_mode !== undefined) patch.filter_mode = input.filter_mode;
    if (input.filter_presets !== undefined) patch.filter_presets = JSON.stringify(input.filter_presets);
    if (input.filter_regex !== undefined) patch.filter_regex = input.filter_regex;
    if (input.process_existing !== undefined) patch.process_existing = input.process_existing ? 1 : 0;
    if (input.auto_archive !== undefined) patch.auto_archive = input.auto_archive ? 1 : 0;
    if (input.auto_tag_id !== undefined) patch.auto_tag_id = input.auto_tag_id;
    if (!(await this.repo.update(id, patch))) throw notWatched();
    await this.manager.refresh();
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw notWatched();
    await this.manager.refresh();
  }

  async setPaused(id: number, paused: boolean): Promise<void> {
    if (!(await this.repo.update(id, { is_paused: paused ? 1 : 0 }))) throw notWatched();
    await this.manager.refresh();
  }

  /** Global pause; resuming leaves individually paused folders paused. */
  async setGlobalPaused(paused: boolean): Promise<void> {
    await this.repo.setGlobalPaused(paused);
    await this.manager.refresh();
  }

  async status(): Promise<WatchStatus> {
    const rows = await this.repo.list();
    const globalPaused = await this.repo.globalPaused();
    const active = rows.filter((r) => r.is_paused === 0 && isDirectory(r.path)).length;
    return { global_paused: globalPaused, active_count: active, total_count: rows.length, is_watching: !globalPaused && active > 0 };
  }

  /** POST /watch/{id}/process: a synchronous scan that runs even while paused. */
  async process(id: number): Promise<void> {
    const row = await this.require(id);
    if (!isDirectory(row.path)) throw badRequest(`folder does not exist: ${row.path}`);
    await this.manager.scan(id, 'explicit');
  }

  scanInBackground(id: number): void {
    this.manager.scanInBackground(id);
  }
}
