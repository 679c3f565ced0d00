// Saved searches (companion §2.5 saved_searches): always read and written through the owner,
// so another account's row is indistinguishable from a missing one.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, SavedSearchTable } from '../schema/database.js';

export type SavedSearchRow = Selectable<SavedSearchTable>;

export class SavedSearchRepository extends Repository<Database> {
  /** The owner's searches in name order, optionally of one family. */
  async list(userId: number, family: string | null): Promise<SavedSearchRow[]> {
    let q = this.db.selectFrom('saved_searches').selectAll().where('user_id', '=', userId);
    if (family !== null) q = q.where('family', '=', family);
    // Alphabetical regardless of case; ties in stored order.
    return q.orderBy(sql.raw(this.dialect.fold('name'))).orderBy('name').orderBy('id').execute();
  }

  async findOwned(id: number, userId: number): Promise<SavedSearchRow | undefined> {
    return this.db.selectFrom('saved_searches').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async insert(row: Insertable<SavedSearchTable>): Promise<SavedSearchRow> {
    return this.db.insertInto('saved_searches').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async updateOwned(id: number, userId: number, patch: Updateable<SavedSearchTable>): Promise<void> {
    await this.db.updateTable('saved_searches').set(patch).where('id', '=', id).where('user_id', '=', userId).execute();
  }

  /** False when the owner has no such row. */
  async removeOwned(id: number, userId: number): Promise<boolean> {
    const res = await this.db.deleteFrom('saved_searches').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
