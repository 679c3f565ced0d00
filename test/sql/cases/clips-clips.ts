// Representative calls of every clip and clip-metadata repository statement (see ../snapshots.test.ts).
import { ClipRepository } from '../../../src/clips/clips/repository.js';
import { MetadataRepository } from '../../../src/clips/clips/metadata.repository.js';
import type BetterSqlite3 from 'better-sqlite3';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';
const work = { id: 3, name: 'work' };
const client = { id: 5, name: 'work/client' };
const head = Buffer.from('hello');

const newRow = { filename: 'a.txt', content_type: 'text/plain', size: 5, content_hash: 'ab'.repeat(32), text_content: 'hello', is_archived: 0, expires_at: null, created_at: now };
/** The recording raw connection behind the repository (its synchronous upload transaction). */
let native: BetterSqlite3.Database;

export default [
  sqlCases(
    ClipRepository,
    [
      ['insert', (r) => r.insert(newRow)],
      ['insertOrFindSync (no live clip with these bytes)', async (r) => r.insertOrFindSync(native, newRow, true)],
      ['insertOrFindSync (without dedup)', async (r) => r.insertOrFindSync(native, newRow, false)],
      ['insertOrFindSync (journaled bytes)', async (r) => r.insertOrFindSync(native, newRow, false, { hash: newRow.content_hash, written_at: 1717243200000, bytes: head })],
      ['insertOrFindManySync (two uploads in one transaction)', async (r) => r.insertOrFindManySync(native, [{ row: newRow, dedup: true }, { row: { ...newRow, filename: 'b.txt' }, dedup: false }])],
      ['replaceContent', (r) => r.replaceContent(7, { hash: 'cd'.repeat(32), size: 5, head }, () => 'hello')],
      ['list (no filter)', (r) => r.list({ now }, { limit: 50, offset: 0 })],
      ['list (scope, subtree, exact tag, type, archived, search, hidden)', (r) => r.list({ now, scope: work, subtrees: [client], exactTag: 9, contentType: 'Text/Plain', archived: false, search: '50%_off', hidden: [4, 6] }, { limit: 20, offset: 40 })],
      ['list (search of two characters: no trigram)', (r) => r.list({ now, search: '#7' }, { limit: 50, offset: 0 })],
      ['list (nothing matches)', (r) => r.list({ now, none: true }, { limit: 50, offset: 0 })],
      ['count (no filter)', (r) => r.count({ now })],
      ['count (tag subtrees only)', (r) => r.count({ now, scope: work, subtrees: [client], exactTag: 9 })],
      ['count (archived)', (r) => r.count({ now, archived: true })],
      ['count (search, hidden)', (r) => r.count({ now, subtrees: [work], search: 'needle', hidden: [4] })],
      ['count (hidden only)', (r) => r.count({ now, hidden: [4, 6] })],
      ['count (one subtree inside the scope, hidden)', (r) => r.count({ now, scope: work, subtrees: [client], hidden: [4] })],
      ['count (exact tag only)', (r) => r.count({ now, exactTag: 9 })],
      ['searchIsRare', (r) => r.searchIsRare('say "hi"')],
      ['hiddenInfo', (r) => r.hiddenInfo({ now, subtrees: [work] }, [4, 6])],
      ['findLive', (r) => r.findLive(7, now)],
      ['findLiveMany', (r) => r.findLiveMany([1, 2, 3], now)],
      ['findLiveByHash', (r) => r.findLiveByHash('ab'.repeat(32), now)],
      ['countInScope', (r) => r.countInScope([1, 2], work)],
      ['referencedAmong', (r) => r.referencedAmong(['ab'.repeat(32), 'cd'.repeat(32)])],
      ['referenced', (r) => r.referenced('ab'.repeat(32))],
      ['contentHashesAfter (first page)', (r) => r.contentHashesAfter(null, 1000)],
      ['contentHashesAfter', (r) => r.contentHashesAfter('ab'.repeat(32), 1000)],
      ['tagLinks', (r) => r.tagLinks([1, 2])],
      ['rename', (r) => r.rename(7, 'notes.md', 'text/markdown')],
      ['rename (type kept)', (r) => r.rename(7, 'notes.txt')],
      ['setArchived', (r) => r.setArchived([1, 2], true, now)],
      ['setExpiry', (r) => r.setExpiry([1, 2], '2024-06-01T13:00:00.000Z', now)],
      ['setCreatedAt', (r) => r.setCreatedAt(7, now)],
      ['deleteMany', (r) => r.deleteMany([1, 2])],
      ['expiredIds', (r) => r.expiredIds(now)],
    ],
    (db, dialect, recorded) => {
      // The insert answers with its new id; the dedup look-up finds nothing.
      native = recorded((text) => (/\breturning\b/i.test(text) ? [{ id: 8 }] : []));
      return new ClipRepository(db as never, dialect);
    },
  ),
  sqlCases(MetadataRepository, [
    ['list', (r) => r.list(7)],
    ['has', (r) => r.has(7, 'source')],
    ['count', (r) => r.count(7)],
    ['replaceAll', (r) => r.replaceAll(7, [{ key: 'source', value: 'scan' }, { key: 'page', value: '2' }])],
    ['put', (r) => r.put(7, 'source', 'scan')],
    ['delete', (r) => r.delete(7, 'source')],
  ]),
];
