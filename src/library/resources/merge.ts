// Resource merge (companion §3.7), one transaction: the losers' tags, notes and related groups
// join the winner, each loser's owner becomes a related group, the losers' versions move to the
// winner (with KeepAsVersion each loser's current file first becomes an older version), loser
// meta is merged under the winner's plus a backups record, and the losers are deleted.
import { sql } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import type { ResourceContext } from './context.js';
import { addLinks } from './links.js';
import { presentResource, type ResourceRow } from './records.js';
import { backupFile, removeUnusedFiles } from './removal.js';
import { dropSeriesIfEmpty } from './series-meta.js';

export async function mergeResources(ctx: ResourceContext, actor: Actor, winnerId: number, loserIds: number[], keepAsVersion: boolean): Promise<void> {
  const losers = [...new Set(loserIds)];
  if (losers.length === 0) throw badRequest('Losers must list at least one resource');
  if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
  const db = ctx.lib.db;
  const winner = await db.selectFrom('resources').selectAll().where('id', '=', winnerId).executeTakeFirst();
  if (!winner) throw notFound(`resource ${winnerId} not found`);
  const loserRows = await db.selectFrom('resources').selectAll().where('id', 'in', losers).orderBy('id').execute();
  if (loserRows.length !== losers.length) throw notFound('one of the losing resources does not exist');
  const backups: Record<string, unknown> = {};
  for (const l of loserRows) backups[`resource_${l.id}`] = await presentResource(db, l);

  const loserVersions = await db.selectFrom('resource_versions').select(['location', 'storage_location']).where('resource_id', 'in', losers).execute();
  await ctx.versionLock.with(String(winnerId), async () => {
    await withChange(ctx.lib, actor, 'update', 'resource', async () => {
      await db.transaction().execute(async (trx) => {
        const l = sql.join(losers);
        const [tags, notes, groups] = await Promise.all([
          trx.selectFrom('resource_tags').select('tag_id').distinct().where('resource_id', 'in', losers).execute(),
          trx.selectFrom('resource_notes').select('note_id').distinct().where('resource_id', 'in', losers).execute(),
          trx.selectFrom('groups_related_resources').select('group_id').distinct().where('resource_id', 'in', losers).execute(),
        ]);
        const owners = loserRows.map((r) => r.owner_id).filter((o): o is number => o !== null);
        await addLinks(trx, 'resource_tags', [winnerId], tags.map((t) => t.tag_id));
        await addLinks(trx, 'resource_notes', [winnerId], notes.map((n) => n.note_id));
        await addLinks(trx, 'groups_related_resources', [winnerId], [...new Set([...groups.map((g) => g.group_id), ...owners])]);

        const maxRow = await trx.selectFrom('resource_versions').select(sql<number>`COALESCE(MAX(version_number), 0)`.as('n')).where('resource_id', '=', winnerId).executeTakeFirstOrThrow();
        let next = Number(maxRow.n);
        // Moved versions get numbers after the winner's; a kept current file comes first.
        const moved = await trx.selectFrom('resource_versions').selectAll().where('resource_id', 'in', losers).orderBy('resource_id').orderBy('version_number').execute();
        for (const loser of loserRows) {
          const own = moved.filter((v) => v.resource_id === loser.id);
          const hasCurrentRow = own.some((v) => v.id === loser.current_version_id);
          if (keepAsVersion && !hasCurrentRow) {
            const now = nowIso();
            await trx
              .insertInto('resource_versions')
              .values({
                created_at: now, updated_at: now, created_by_user_id: actor.principal.userId, resource_id: winnerId, version_number: ++next,
                hash: loser.hash, hash_type: loser.hash_type, file_size: loser.file_size, content_type: loser.content_type,
                width: loser.width, height: loser.height, location: loser.location, storage_location: loser.storage_location,
                comment: `Merged from resource #${loser.id} (${loser.name})`,
              })
              .execute();
          }
          for (const v of own) {
            if (!keepAsVersion && v.id === loser.current_version_id) continue;
            await trx.updateTable('resource_versions').set({ resource_id: winnerId, version_number: ++next, comment: v.comment || `Merged from resource #${loser.id}` }).where('id', '=', v.id).execute();
          }
        }

        const meta: Record<string, unknown> = {};
        for (const loser of loserRows) Object.assign(meta, parseJson<Record<string, unknown>>(loser.meta, {}));
        Object.assign(meta, parseJson<Record<string, unknown>>(winner.meta, {}));
        const previous = (meta.backups && typeof meta.backups === 'object' && !Array.isArray(meta.backups) ? meta.backups : {}) as Record<string, unknown>;
        meta.backups = { ...previous, ...backups };
        const own = winner.series_id === null ? '{}' : JSON.stringify({ ...parseJson<Record<string, unknown>>(winner.own_meta, {}), backups: meta.backups });
        await trx.updateTable('resources').set({ meta: JSON.stringify(meta), own_meta: own, updated_at: nowIso() }).where('id', '=', winnerId).execute();

        await sql`DELETE FROM resources WHERE id IN (${l})`.execute(trx);
        for (const s of new Set(loserRows.map((r) => r.series_id))) if (s !== winner.series_id) await dropSeriesIfEmpty(trx, s);
      });
      return { id: winnerId, name: winner.name, message: `Merged resources ${losers.join(', ')} into ${winnerId}${keepAsVersion ? ' (kept as versions)' : ''}`, result: undefined };
    });
  });
  for (const l of loserRows) await backupFile(ctx, l as ResourceRow).catch(() => undefined);
  await removeUnusedFiles(ctx, [
    ...loserRows.map((r) => ({ location: r.location, storage: r.storage_location })),
    ...loserVersions.map((v) => ({ location: v.location, storage: v.storage_location })),
  ]);
  for (const id of losers) await ctx.previews.clear(id);
}
