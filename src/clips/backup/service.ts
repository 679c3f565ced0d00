// Backup and restore (companion §10). A restore is checked completely before anything live
// changes (prepare.ts); then the features using the store are suspended, the new bytes are
// placed, and the rows are swapped in one transaction. When that fails the previous store
// stays as it was and in use; when it succeeds, plugin sources are replaced, unreferenced
// bytes collected, and the features resume (every watch folder is paused by the restore).
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { HttpError } from '../../core/http/errors.js';
import { syncDir } from '../../core/storage/file-store.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import { keyStamp } from '../clock.js';
import type { ClipService } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import { prepareRestore } from './prepare.js';
import { LiveRestore } from './repository.js';
import { buildBackup, type BuiltBackup } from './writer.js';

/** A feature that holds on to the store and must let go while a restore swaps it. */
export interface RestoreParticipant {
  /** A restore begins (before its checks). */
  begin?(): void;
  /** Right before the swap: stop touching the store. */
  suspend(): Promise<void>;
  /** After the swap (`restored`) or after a swap that failed and changed nothing. */
  resume(restored: boolean): Promise<void>;
  /** The restore is over, whatever its outcome. */
  end?(): void;
}

export class BackupService {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly ctx: ClipContext,
    private readonly clips: ClipService,
    private readonly participants: readonly RestoreParticipant[],
    private readonly log: (msg: string) => void,
  ) {}

  backup(): Promise<BuiltBackup> {
    return buildBackup(this.ctx);
  }

  /** Restores are serialised; a bad archive is a 400 and changes nothing. */
  restore(zipPath: string): Promise<void> {
    return this.lock.with('restore', async () => {
      for (const p of this.participants) p.begin?.();
      try {
        await this.restoreLocked(zipPath);
      } finally {
        for (const p of this.participants) p.end?.();
      }
    });
  }

  private async restoreLocked(zipPath: string): Promise<void> {
    const { ctx } = this;
    const prepared = await prepareRestore(zipPath, ctx, ctx.config.maxRestoreBytes, this.log);
    try {
      for (const p of this.participants) await p.suspend();
      let restored = false;
      try {
        await this.swap(prepared.newBlobs, prepared.stagingPath);
        restored = true;
        await this.replacePlugins(prepared.pluginDir);
        await ctx.blobs.collectAll(this.clips.referenced);
      } finally {
        for (const p of this.participants) {
          await p.resume(restored).catch((e: unknown) => this.log(`restore: resuming after the swap failed: ${(e as Error).message}`));
        }
      }
      this.log(`restore: ${prepared.summary.clips} clips, ${prepared.summary.tags} tags, ${prepared.summary.watch_folders} watch folders (paused), ${prepared.summary.plugins} plugins`);
    } finally {
      await prepared.discard();
    }
  }

  /** Places the new bytes, then swaps the rows; collection waits until the rows are in. */
  private async swap(newBlobs: Map<string, string>, stagingPath: string): Promise<void> {
    const { ctx } = this;
    const release = ctx.blobs.holdCollection();
    const placed: string[] = [];
    let swapped = false;
    try {
      for (const [hash, tmpPath] of newBlobs) {
        await ctx.blobs.place({ hash, tmpPath });
        placed.push(hash);
      }
      const revokedAt = keyStamp(ctx.clock.now());
      // Holding the connection keeps every other query out while the swap runs.
      await ctx.db.connection().execute(async () => new LiveRestore(ctx.sqlite).swapInStaged(stagingPath, revokedAt));
      swapped = true;
    } catch (e) {
      this.log(`restore failed, the previous store is unchanged: ${(e as Error).stack ?? e}`);
      throw new HttpError(500, `failed to restore backup: ${(e as Error).message}`);
    } finally {
      await release();
      if (!swapped) await ctx.blobs.release(placed, this.clips.referenced);
    }
  }

  /** plugins/ becomes the backup's plugin sources (the old folder is removed afterwards). */
  private async replacePlugins(staged: string): Promise<void> {
    const dataDir = this.ctx.config.dataDir;
    const live = join(dataDir, 'plugins');
    const old = join(dataDir, `plugins.old-${randomBytes(4).toString('hex')}`);
    const hadOld = existsSync(live);
    if (hadOld) await rename(live, old);
    try {
      await rename(staged, live);
    } catch (e) {
      if (hadOld) await rename(old, live);
      throw e;
    }
    await syncDir(dataDir);
    if (hadOld) await rm(old, { recursive: true, force: true });
  }
}
