// Everything a clip feature needs, built once by main.ts.
import type Database from 'better-sqlite3';
import type { Clock } from './clock.js';
import type { ClipConfig } from './config.js';
import type { ClipEvents } from './events.js';
import type { ClipDb } from './schema/database.js';
import type { BlobStore } from './storage/blobs.js';

export interface ClipContext {
  db: ClipDb;
  /** The raw connection, for the few synchronous start-up checks. */
  sqlite: Database.Database;
  clock: Clock;
  events: ClipEvents;
  blobs: BlobStore;
  config: ClipConfig;
}
