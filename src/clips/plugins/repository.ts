// Plugin rows, plugin storage and file-system grants (companion §2.3); no rules here.
import { sql, type Selectable } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import type { PluginTable } from '../schema/database.js';

export type PluginRow = Selectable<PluginTable>;

export type PluginStatus = 'loaded' | 'disabled' | 'error';

export interface GrantRow {
  permission_type: string;
  path: string;
}

export class PluginRepository extends ClipStoreRepository {
  list(): Promise<PluginRow[]> {
    return this.db.selectFrom('plugins').selectAll().orderBy('name').orderBy('id').execute();
  }

  find(id: number): Promise<PluginRow | undefined> {
    return this.db.selectFrom('plugins').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByFilename(filename: string): Promise<PluginRow | undefined> {
    return this.db.selectFrom('plugins').selectAll().where('filename', '=', filename).executeTakeFirst();
  }

  async insert(row: { filename: string; name: string; version: string; source_url: string; now: string }): Promise<number> {
    const r = await this.db
      .insertInto('plugins')
      .values({ filename: row.filename, name: row.name, version: row.version, source_url: row.source_url, enabled: 1, status: 'loaded', error_count: 0, created_at: row.now, updated_at: row.now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** A reinstall or update: new manifest facts, enabled and loaded again with a clean error count. */
  async replace(id: number, row: { name: string; version: string; source_url?: string; now: string }): Promise<void> {
    await this.db
      .updateTable('plugins')
      .set({
        name: row.name,
        version: row.version,
        ...(row.source_url !== undefined ? { source_url: row.source_url } : {}),
        enabled: 1,
        status: 'loaded',
        error_count: 0,
        last_error: null,
        updated_at: row.now,
      })
      .where('id', '=', id)
      .execute();
  }

  async setState(id: number, state: { enabled: boolean; status: PluginStatus; error_count?: number; last_error?: string | null; now: string }): Promise<void> {
    await this.db
      .updateTable('plugins')
      .set({
        enabled: state.enabled ? 1 : 0,
        status: state.status,
        ...(state.error_count !== undefined ? { error_count: state.error_count } : {}),
        ...(state.last_error !== undefined ? { last_error: state.last_error } : {}),
        updated_at: state.now,
      })
      .where('id', '=', id)
      .execute();
  }

  async setErrors(id: number, count: number, lastError: string | null): Promise<void> {
    await this.db.updateTable('plugins').set({ error_count: count, ...(lastError !== null ? { last_error: lastError } : {}) }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('plugins').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  // Storage: one string value per key, per plugin.

  storageAll(pluginId: number): Promise<{ key: string; value: string }[]> {
    return this.db.selectFrom('plugin_storage').select(['key', 'value']).where('plugin_id', '=', pluginId).orderBy('key').execute();
  }

  async storageKeys(pluginId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('plugin_storage').select('key').where('plugin_id', '=', pluginId).orderBy('key').execute();
    return rows.map((r) => r.key);
  }

  async storageGet(pluginId: number, key: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('plugin_storage').select('value').where('plugin_id', '=', pluginId).where('key', '=', key).executeTakeFirst();
    return r?.value;
  }

  /** Characters stored by the plugin, not counting `exceptKey` (the one about to be replaced). */
  async storageSize(pluginId: number, exceptKey: string): Promise<number> {
    const r = await this.db
      .selectFrom('plugin_storage')
      .select(sql<number>`COALESCE(SUM(length(value)), 0)`.as('n'))
      .where('plugin_id', '=', pluginId)
      .where('key', '<>', exceptKey)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async storagePut(pluginId: number, key: string, value: string): Promise<void> {
    await this.db
      .insertInto('plugin_storage')
      .values({ plugin_id: pluginId, key, value })
      .onConflict((oc) => oc.columns(['plugin_id', 'key']).doUpdateSet({ value }))
      .execute();
  }

  async storageDelete(pluginId: number, key: string): Promise<void> {
    await this.db.deleteFrom('plugin_storage').where('plugin_id', '=', pluginId).where('key', '=', key).execute();
  }

  // File-system grants, managed out of band (companion §8.9).

  effectiveGrants(pluginId: number): Promise<GrantRow[]> {
    return this.db.selectFrom('plugin_permissions').select(['permission_type', 'path']).where('plugin_id', '=', pluginId).where('pending_reconfirm', '=', 0).execute();
  }

  async addGrant(pluginId: number, type: 'fs_read' | 'fs_write', path: string, now: string): Promise<void> {
    await this.db.insertInto('plugin_permissions').values({ plugin_id: pluginId, permission_type: type, path, granted_at: now, pending_reconfirm: 0 }).execute();
  }
}
