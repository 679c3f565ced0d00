// The blob journal (docs/storage.md, "Small clips"): the bytes of a small upload whose file is
// not yet known to be on disk, written in the same transaction as the clip row that refers to
// them. The file is written without waiting for the disk; once it is flushed (by the kernel's
// own writeback, then confirmed by a flush of the filesystem with little left to do) the row goes. After a
// crash the rows left are the files to check and, where they did not survive, to write again.
// `written_at` comes before `bytes` so reading the ages never touches the bytes' overflow pages.
import { sql, type Kysely, type Migration } from 'kysely';

export const blobJournalMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE blob_journal (
      hash       TEXT    PRIMARY KEY,
      written_at INTEGER NOT NULL,
      bytes      BLOB    NOT NULL
    )`.execute(db);
  },
};
