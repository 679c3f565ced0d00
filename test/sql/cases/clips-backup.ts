// Representative calls of every backup statement (see ../snapshots.test.ts): the read snapshot a
// backup dumps, the staging database a restore fills, and the swap into the live database. They
// run on better-sqlite3 connections, so the recorder stands in for those.
import { LiveRestore, Snapshot, StagingDb } from '../../../src/clips/backup/repository.js';
import type { SqlCaseSet } from '../capture.js';

/** Two columns for every table, so the swap's statements name columns as they do live. */
const columns = (sql: string) => (sql.includes('pragma_table_info') ? ['id', 'name'] : []);

export default [
  {
    repository: Snapshot,
    build: (_db, _dialect, native) => new Snapshot(native()),
    cases: [
      ['columns', async (r) => r.columns('clips')],
      ['rows', async (r) => [...r.rows('tags', ['id', 'name', 'color', 'created_at'])]],
      ['summary', async (r) => r.summary()],
      ['sensitiveSettings', async (r) => r.sensitiveSettings()],
      ['contents', async (r) => [...r.contents()]],
      ['pluginFiles', async (r) => r.pluginFiles()],
      ['close', async (r) => r.close()],
    ],
  } satisfies SqlCaseSet<Snapshot>,
  {
    repository: StagingDb,
    build: (_db, _dialect, native) => new StagingDb('/tmp/staging.db', native()),
    cases: [
      ['columnsOf', async (r) => r.columnsOf('clips')],
      ['insert', async (r) => r.insert('tags', ['id', 'name', 'color', 'created_at'], [1, 'work', '#78716C', '2024-06-01T12:00:00.000Z'])],
      ['clipsAfter', async (r) => r.clipsAfter(40)],
      ['needsContent', async (r) => r.needsContent('b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9')],
      ['setContent', async (r) => r.setContent(5, { hash: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9', size: 11, text: 'hello world' })],
      ['danglingReferences', async (r) => r.danglingReferences()],
      ['summary', async (r) => r.summary()],
      ['finish', async (r) => r.finish()],
      ['close', async (r) => r.close()],
    ],
  } satisfies SqlCaseSet<StagingDb>,
  {
    repository: LiveRestore,
    build: (_db, _dialect, native) => new LiveRestore(native(columns)),
    cases: [['swapInStaged', async (r) => r.swapInStaged('/tmp/staging.db', '2024-06-01 12:00:00')]],
  } satisfies SqlCaseSet<LiveRestore>,
] as SqlCaseSet[];
