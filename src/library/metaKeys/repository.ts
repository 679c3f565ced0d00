// The distinct top-level meta keys of a content table, read through the dialect's meta-path
// translation (the empty path is the whole meta object), in one statement.
import type { RawBuilder } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import { ref } from '../../core/db/fragments.js';
import { fragment } from '../../core/db/sql-text.js';
import type { Database } from '../schema/database.js';

export type MetaKeyTable = 'resources' | 'notes' | 'groups';

export class MetaKeyRepository extends Repository<Database> {
  /** Distinct top-level keys of `table`'s meta objects, in key order. */
  async keys(table: MetaKeyTable): Promise<string[]> {
    const statement: RawBuilder<{ key: string }> = fragment(this.dialect, (b) => {
      const keys = this.dialect.jsonObjectKeys(this.dialect.jsonPath(b, 't.meta', []), 'k');
      return `SELECT DISTINCT ${keys.key} AS key FROM ${ref(table)} t, ${keys.from} ORDER BY ${keys.key}`;
    });
    return (await statement.execute(this.db)).rows.map((r) => r.key);
  }
}
