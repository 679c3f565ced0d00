// Representative calls of every blob-journal statement (see ../snapshots.test.ts).
import type BetterSqlite3 from 'better-sqlite3';
import { BlobJournalRepository } from '../../../src/clips/storage/journal.repository.js';
import { sqlCases } from '../capture.js';

const entry = { hash: 'ab'.repeat(32), written_at: 1717243200000, bytes: Buffer.from('hello') };
/** The recording raw connection behind the repository (the synchronous upload transaction). */
let native: BetterSqlite3.Database;

export default [
  sqlCases(
    BlobJournalRepository,
    [
      ['add', (r) => r.add(entry)],
      ['addSync', async (r) => r.addSync(native, entry)],
      ['due', (r) => r.due(1717243200000, 'ab'.repeat(32), 100)],
      ['entry', (r) => r.entry(entry.hash)],
      ['remove (a page of entries as read)', (r) => r.remove([entry, { hash: 'cd'.repeat(32), written_at: 1717243201000 }])],
    ],
    (db, dialect, recorded) => {
      native = recorded(() => []);
      return new BlobJournalRepository(db as never, dialect);
    },
  ),
];
