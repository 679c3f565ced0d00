// The base of every clip repository. The clip store is SQLite only (companion §2.3), so a
// repository built without a dialect gets SQLite's; the snapshot test passes it explicitly.
import { Repository, type Executor } from '../../core/db/repository.js';
import { dialectFor, type Dialect } from '../../core/db/dialect/index.js';
import type { ClipDatabase } from './database.js';

export abstract class ClipStoreRepository extends Repository<ClipDatabase> {
  constructor(db: Executor<ClipDatabase>, dialect: Dialect = dialectFor('sqlite')) {
    super(db, dialect);
  }
}
