// Plugin state rows (companion §2.6 plugin_states). Writes are column-scoped: recording consent
// never overwrites settings, and the reverse (library-plugins.md §28).
import type { Selectable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import type { Database, PluginStateTable } from '../schema/database.js';

export type PluginStateRow = Selectable<PluginStateTable>;

export class PluginStateRepository extends Repository<Database> {
  all(): Promise<PluginStateRow[]> {
    return this.db.selectFrom('plugin_states').selectAll().orderBy('id').execute();
  }

  find(name: string): Promise<PluginStateRow | undefined> {
    return this.db.selectFrom('plugin_states').selectAll().where('plugin_name', '=', name).executeTakeFirst();
  }

  /** Creates the (disabled) row of a plugin when it has none. */
  async ensure(name: string): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('plugin_states')
      .values({ plugin_name: name, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('plugin_name').doNothing())
      .execute();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.ensure(name);
    await this.db.updateTable('plugin_states').set({ enabled, updated_at: nowIso() }).where('plugin_name', '=', name).execute();
  }

  async setSettings(name: string, settingsJson: string): Promise<void> {
    await this.ensure(name);
    await this.db.updateTable('plugin_states').set({ settings_json: settingsJson, updated_at: nowIso() }).where('plugin_name', '=', name).execute();
  }

  async setGrants(name: string, grantsJson: string): Promise<void> {
    await this.ensure(name);
    await this.db.updateTable('plugin_states').set({ grants_json: grantsJson, updated_at: nowIso() }).where('plugin_name', '=', name).execute();
  }

  async setScopedAccess(name: string, allowed: boolean): Promise<void> {
    await this.ensure(name);
    await this.db.updateTable('plugin_states').set({ allow_scoped_principals: allowed, updated_at: nowIso() }).where('plugin_name', '=', name).execute();
  }
}
