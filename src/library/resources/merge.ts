// Resource merge (companion §3.7), one transaction: the losers' tags, notes and related groups
// join the winner, each loser's owner becomes a related group, the losers' versions move to the
// winner (with KeepAsVersion each loser's current file first becomes an older version), loser
// meta is merged under the winner's plus a backups record, and the losers are deleted.
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { visibilityOf, type Visibility } from '../auth/visibility.js';
import { withChange } from '../common/changes.js';
import type { ResourceContext } from './context.js';
import type { ResourceRemoval } from './removal.js';
import type { ResourceRow } from './records.js';
import { hookData, type ResourceService } from './service.js';
import type { ResourceStores } from './stores.js';

export class ResourceMerge {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly stores: ResourceStores,
    private readonly resources: ResourceService,
    private readonly removal: ResourceRemoval,
  ) {}

  async merge(actor: Actor, winnerId: number, loserIds: number[], keepAsVersion: boolean): Promise<void> {
    const losers = [...new Set(loserIds)];
    if (losers.length === 0) throw badRequest('Losers must list at least one resource');
    if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
    const vis = visibilityOf(actor.principal);
    const winner = await this.resources.require(vis, winnerId);
    const loserRows = await this.resources.named.requireAll(losers, vis);
    const backups: Record<string, unknown> = {};
    for (const l of loserRows) backups[`resource_${l.id}`] = await this.resources.present(l);

    const loserFiles = await this.stores.versions.filesOf(losers);
    // The losers are deleted: their delete hooks fire around the merge (library-plugins.md §16.3).
    const merged = () => withChange(this.ctx.lib.bus, actor, 'delete', 'resource', async () => {
      await this.absorbLosers(actor, winner, loserRows, keepAsVersion, vis, backups);
      return { message: `Deleted resources ${losers.join(', ')} merged into ${winnerId}`, result: undefined };
    }, { ids: losers });
    await this.ctx.versionLock.with(String(winnerId), merged);
    for (const l of loserRows) await this.removal.backupFile(l).catch(() => undefined);
    await this.removal.removeUnusedFiles([...loserRows.map((r) => ({ location: r.location, storage: r.storage_location })), ...loserFiles]);
    for (const id of losers) await this.ctx.previews.clear(id);
  }

  /** The merge itself, one transaction; its update of the winner fires the update hooks. */
  private async absorbLosers(actor: Actor, winner: ResourceRow, loserRows: ResourceRow[], keepAsVersion: boolean, vis: Visibility, backups: Record<string, unknown>): Promise<void> {
    const winnerId = winner.id;
    const losers = loserRows.map((r) => r.id);
    await withChange(this.ctx.lib.bus, actor, 'update', 'resource', async () => {
      await this.ctx.lib.transactor.run(async (trx) => {
        const { links, versions, resources, series } = this.stores.in(trx);
        const [tags, notes, groups] = await Promise.all([links.targetsOf('tags', losers), links.targetsOf('notes', losers), links.targetsOf('groups', losers)]);
        const owners = loserRows.map((r) => r.owner_id).filter((o): o is number => o !== null);
        await links.add('tags', [winnerId], tags);
        await links.add('notes', [winnerId], notes);
        await links.add('groups', [winnerId], [...new Set([...groups, ...owners])]);

        let next = await versions.lastNumber(winnerId);
        // Moved versions get numbers after the winner's; a kept current file comes first.
        const moved = await versions.allFor(losers);
        for (const loser of loserRows) {
          const own = moved.filter((v) => v.resource_id === loser.id);
          const hasCurrentRow = own.some((v) => v.id === loser.current_version_id);
          if (keepAsVersion && !hasCurrentRow) {
            const now = nowIso();
            await versions.insert({
              created_at: now,
              updated_at: now,
              created_by_user_id: actor.principal.userId,
              resource_id: winnerId,
              version_number: ++next,
              hash: loser.hash,
              hash_type: loser.hash_type,
              file_size: loser.file_size,
              content_type: loser.content_type,
              width: loser.width,
              height: loser.height,
              location: loser.location,
              storage_location: loser.storage_location,
              comment: `Merged from resource #${loser.id} (${loser.name})`,
            });
          }
          for (const v of own) {
            if (!keepAsVersion && v.id === loser.current_version_id) continue;
            await versions.patch(v.id, { resource_id: winnerId, version_number: ++next, comment: v.comment || `Merged from resource #${loser.id}` });
          }
        }

        const meta: Record<string, unknown> = {};
        for (const loser of loserRows) Object.assign(meta, parseJson<Record<string, unknown>>(loser.meta, {}));
        Object.assign(meta, parseJson<Record<string, unknown>>(winner.meta, {}));
        const previous = (meta.backups && typeof meta.backups === 'object' && !Array.isArray(meta.backups) ? meta.backups : {}) as Record<string, unknown>;
        meta.backups = { ...previous, ...backups };
        const own = winner.series_id === null ? '{}' : JSON.stringify({ ...parseJson<Record<string, unknown>>(winner.own_meta, {}), backups: meta.backups });
        await resources.update(winnerId, { meta: JSON.stringify(meta), own_meta: own }, vis);

        await resources.remove(losers, vis);
        for (const s of new Set(loserRows.map((r) => r.series_id))) if (s !== null && s !== winner.series_id) await series.removeIfEmpty(s);
      });
      return { id: winnerId, name: winner.name, message: `Merged resources ${losers.join(', ')} into ${winnerId}${keepAsVersion ? ' (kept as versions)' : ''}`, result: undefined };
    }, { data: hookData(winner) });
  }
}
