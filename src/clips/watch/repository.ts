// Watch-folder rows and the global pause setting; no rules here.
import type { Updateable } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import type { WatchedFolderTable } from '../schema/database.js';
import { SettingsRepository } from '../settings/repository.js';

export interface WatchRow {
  id: number;
  path: string;
  filter_mode: string;
  filter_presets: string;
  filter_regex: string;
  process_existing: number;
  auto_archive: number;
  auto_tag_id: number | null;
  is_paused: number;
  created_at: string;
}

export type NewWatchRow = Omit<WatchRow, 'id'>;
export type WatchPatch = Updateable<WatchedFolderTable>;

const GLOBAL_PAUSE = 'global_watch_paused';

export class WatchRepository extends ClipStoreRepository {
  /** Newest first (companion §7.1). */
  list(): Promise<WatchRow[]> {
    return this.db.selectFrom('watched_folders').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  find(id: number): Promise<WatchRow | undefined> {
    return this.db.selectFrom('watched_folders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByPath(path: string): Promise<WatchRow | undefined> {
    return this.db.selectFrom('watched_folders').selectAll().where('path', '=', path).executeTakeFirst();
  }

  async insert(row: NewWatchRow): Promise<number> {
    return (await this.db.insertInto('watched_folders').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** False when the folder does not exist. */
  async update(id: number, patch: WatchPatch): Promise<boolean> {
    if (Object.keys(patch).length === 0) return (await this.find(id)) !== undefined;
    const r = await this.db.updateTable('watched_folders').set(patch).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('watched_folders').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async globalPaused(): Promise<boolean> {
    return (await new SettingsRepository(this.db, this.dialect).get(GLOBAL_PAUSE)) === 'true';
  }

  setGlobalPaused(paused: boolean): Promise<void> {
    return new SettingsRepository(this.db, this.dialect).set(GLOBAL_PAUSE, paused ? 'true' : 'false');
  }
}
