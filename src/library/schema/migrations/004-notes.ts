// Notes and blocks: block positions must order byte-wise (companion §12.3). SQLite compares text
// with the BINARY collation already; PostgreSQL would use the database's locale, so the column
// gets the "C" collation there (its indexes are rebuilt with it).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

export function notesMigration(d: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const byteOrder = d.byEngine({ sqlite: null, postgres: sql`ALTER TABLE note_blocks ALTER COLUMN position TYPE varchar(64) COLLATE "C"` });
      if (byteOrder) await byteOrder.execute(db);
    },
  };
}
