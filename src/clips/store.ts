// Opens the clip store (companion §1.2 steps 1–3): data directory, SQLite with WAL and
// migrations, and the start-up sweep: tmp/ emptied, the blob journal checked against its files
// and emptied (a crashed process's small uploads written again where their files were lost),
// then a reconciliation removing blobs no row refers to that are older than -orphan-grace-ms
// (docs/storage.md). Closing flushes the journal.
import { existsSync, mkdirSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { connect } from '../core/db/connect.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { systemClock, type Clock } from './clock.js';
import type { ClipConfig } from './config.js';
import type { ClipContext } from './context.js';
import { ClipEvents } from './events.js';
import { clipMigrations } from './schema/migrations.js';
import type { ClipDatabase } from './schema/database.js';
import { ClipRepository } from './clips/repository.js';
import { BlobStore } from './storage/blobs.js';
import { BlobJournal } from './storage/journal.js';
import { ClipReconciler } from './storage/reconcile.js';

export interface OpenStore {
  ctx: ClipContext;
  reconciler: ClipReconciler;
  close(): Promise<void>;
}

/** Names every content hash some row refers to whose blob is missing (never fatal: §2.2). */
async function reportMissingContent(clips: ClipRepository, blobs: BlobStore): Promise<void> {
  // Pages, so a large store is never read into memory at once.
  const PAGE = 1000;
  for (let after: string | null = null; ; ) {
    const hashes = await clips.contentHashesAfter(after, PAGE);
    for (const hash of hashes) if (!/^[0-9a-f]{64}$/.test(hash) || !blobs.exists(hash)) console.error(`clip content ${hash} is missing from ${blobs.blobDir}`);
    if (hashes.length < PAGE) return;
    after = hashes[hashes.length - 1];
  }
}

export async function openStore(config: ClipConfig, clock: Clock = systemClock, log: (msg: string) => void = console.log): Promise<OpenStore> {
  const dataDir = resolve(config.dataDir);
  const fresh = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (fresh) chmodSync(dataDir, 0o700);
  const blobs = new BlobStore(dataDir);

  const handle = connect<ClipDatabase>({ kind: 'sqlite', dsn: join(dataDir, 'clips.db') });
  try {
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, clipMigrations);
  } catch (e) {
    await handle.close();
    throw e;
  }
  const sqlite = handle.sqlite!;

  const tmp = blobs.sweepTemp();
  if (tmp) log(`start-up sweep: removed ${tmp} temp files`);
  const clips = new ClipRepository(handle.db);
  const journal = new BlobJournal(handle.db, blobs, (hashes) => clips.referencedAmong(hashes));
  const recovered = await journal.flush({ all: true, verify: true });
  if (recovered) log(`start-up sweep: settled ${recovered} blob journal entries`);
  journal.start();
  await reportMissingContent(clips, blobs);

  const ctx: ClipContext = { db: handle.db, sqlite, clock, events: new ClipEvents(), blobs, config: { ...config, dataDir } };
  const reconciler = new ClipReconciler(ctx, log);
  await reconciler.schedule.now();
  return {
    ctx,
    reconciler,
    close: async () => {
      try {
        await journal.stop();
      } finally {
        await handle.close();
      }
    },
  };
}
