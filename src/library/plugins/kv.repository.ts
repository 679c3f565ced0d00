// Each plugin's key-value store (companion §2.6 plugin_kvs, library-plugins.md §12). Values are
// JSON text; compare-and-set compares inside the single write statement.
import { Repository } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import type { Database } from '../schema/database.js';

export class PluginKvRepository extends Repository<Database> {
  async get(plugin: string, key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('plugin_kvs').select('value').where('plugin_name', '=', plugin).where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async set(plugin: string, key: string, value: string): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('plugin_kvs')
      .values({ plugin_name: plugin, key, value, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['plugin_name', 'key']).doUpdateSet({ value, updated_at: now }))
      .execute();
  }

  /** Inserts only when no entry exists; true when written. */
  async insertIfAbsent(plugin: string, key: string, value: string): Promise<boolean> {
    const now = nowIso();
    const res = await this.db
      .insertInto('plugin_kvs')
      .values({ plugin_name: plugin, key, value, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['plugin_name', 'key']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Replaces the value only when it is exactly `expected`; true when written. */
  async replaceIf(plugin: string, key: string, expected: string, value: string): Promise<boolean> {
    const res = await this.db
      .updateTable('plugin_kvs')
      .set({ value, updated_at: nowIso() })
      .where('plugin_name', '=', plugin)
      .where('key', '=', key)
      .where('value', '=', expected)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async delete(plugin: string, key: string): Promise<void> {
    await this.db.deleteFrom('plugin_kvs').where('plugin_name', '=', plugin).where('key', '=', key).execute();
  }

  /** Keys starting with prefix (literal), in byte order. */
  async keys(plugin: string, prefix: string): Promise<string[]> {
    const rows = await this.db.selectFrom('plugin_kvs').select('key').where('plugin_name', '=', plugin).execute();
    // LIKE folds case on SQLite and its escapes differ between engines; a plugin's keys are
    // few, so the literal, case-sensitive prefix match and the byte order happen here.
    return rows
      .map((r) => r.key)
      .filter((k) => k.startsWith(prefix))
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  async purge(plugin: string): Promise<number> {
    const res = await this.db.deleteFrom('plugin_kvs').where('plugin_name', '=', plugin).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
