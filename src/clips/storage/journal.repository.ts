// The blob journal's rows (migration 003): the bytes of small uploads whose files may not be on
// disk yet. Written in the transaction of the clip row that refers to them, removed once the
// file is flushed (storage/journal.ts).
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { CompiledOnce } from '../../core/db/compiled-once.js';
import type { Executor } from '../../core/db/repository.js';
import { ClipStoreRepository } from '../schema/base-repository.js';
import type { ClipDatabase } from '../schema/database.js';

/** One blob's bytes as the journal keeps them. */
export interface JournalEntry {
  hash: string;
  /** When the file was written (milliseconds since the epoch): its age decides when to flush. */
  written_at: number;
  bytes: Buffer;
}

// Every small upload writes one: compiled once. Bytes already journaled (the same content, its
// file perhaps removed and written again since) take the new time: the flush compares it with
// when it fsynced the file's folder.
const addEntry = new CompiledOnce(3, (db: Executor<ClipDatabase>, hash: string, written_at: number, bytes: Buffer) =>
  db
    .insertInto('blob_journal')
    .values({ hash, written_at, bytes })
    .onConflict((oc) => oc.column('hash').doUpdateSet((eb) => ({ written_at: eb.ref('excluded.written_at') }))),
);

export class BlobJournalRepository extends ClipStoreRepository {
  async add(entry: JournalEntry): Promise<void> {
    await addEntry.run(this.db, entry.hash, entry.written_at, entry.bytes);
  }

  /** `add` on the raw connection, inside a synchronous transaction its caller holds (ClipRepository.insertOrFindManySync). */
  addSync(conn: Database.Database, entry: JournalEntry): void {
    addEntry.runSync(conn, this.db, entry.hash, entry.written_at, entry.bytes);
  }

  /**
   * Entries written at or before `before`, in hash order after `after`, with the size of their
   * bytes but not the bytes (SQLite reads a blob's length from the record header): one page of
   * what is due.
   */
  due(before: number, after: string, limit: number): Promise<{ hash: string; written_at: number; size: number }[]> {
    return this.db
      .selectFrom('blob_journal')
      .select(['hash', 'written_at', sql<number>`length(bytes)`.as('size')])
      .where('written_at', '<=', before)
      .where('hash', '>', after)
      .orderBy('hash')
      .limit(limit)
      .execute();
  }

  async entry(hash: string): Promise<JournalEntry | undefined> {
    return this.db.selectFrom('blob_journal').select(['hash', 'written_at', 'bytes']).where('hash', '=', hash).executeTakeFirst();
  }

  /**
   * Drops entries as they were read, in one statement: one written again since (the same bytes
   * uploaded again, a newer `written_at`) stays for the next flush.
   */
  async remove(entries: readonly { hash: string; written_at: number }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .deleteFrom('blob_journal')
      .where((eb) => eb.or(entries.map((e) => eb.and([eb('hash', '=', e.hash), eb('written_at', '=', e.written_at)]))))
      .execute();
  }
}
