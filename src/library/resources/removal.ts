// Deleting resources (companion §3.8): the current file is kept as a backup under /deleted on
// the main filesystem, the rows go in one transaction (versions, hashes, similarity pairs and
// join rows cascade), and a file is removed only when no resource or version still uses it.
import { basename } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema/database.js';
import type { ResourceContext } from './context.js';
import type { ResourceRow } from './records.js';
import { dropSeriesIfEmpty } from './series-meta.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface StoredFile {
  location: string;
  storage: string | null;
}

/** True when some resource or version row still points at this file. */
export async function fileInUse(db: Db, f: StoredFile): Promise<boolean> {
  let r = db.selectFrom('resources').select('id').where('location', '=', f.location);
  r = f.storage === null ? r.where('storage_location', 'is', null) : r.where('storage_location', '=', f.storage);
  if (await r.limit(1).executeTakeFirst()) return true;
  let v = db.selectFrom('resource_versions').select('id').where('location', '=', f.location);
  v = f.storage === null ? v.where('storage_location', 'is', null) : v.where('storage_location', '=', f.storage);
  return (await v.limit(1).executeTakeFirst()) !== undefined;
}

/** Removes each file that nothing references any more. */
export async function removeUnusedFiles(ctx: ResourceContext, files: StoredFile[]): Promise<void> {
  const seen = new Set<string>();
  for (const f of files) {
    const key = `${f.storage ?? ''}:${f.location}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (await fileInUse(ctx.lib.db, f)) continue;
    await ctx.fs.get(f.storage).remove(f.location).catch((e: Error) => console.error(`could not remove ${f.location}: ${e.message}`));
  }
}

/** Copies the current file to /deleted/<storage key or "deleted">/<hash>__<id>__<owner>___<name>. */
export async function backupFile(ctx: ResourceContext, row: ResourceRow): Promise<void> {
  const source = ctx.fs.get(row.storage_location);
  if (!(await source.exists(row.location))) return;
  const target = `/deleted/${row.storage_location ?? 'deleted'}/${row.hash}__${row.id}__${row.owner_id ?? 'nil'}___${basename(row.location)}`;
  await ctx.fs.main.copyTo(source.resolve(row.location), target);
}

/** Deletes resources in one transaction, then their unreferenced files and previews. */
export async function deleteResources(ctx: ResourceContext, rows: ResourceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  const versions = await ctx.lib.db.selectFrom('resource_versions').select(['location', 'storage_location']).where('resource_id', 'in', ids).execute();
  for (const row of rows) await backupFile(ctx, row);
  await ctx.lib.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('resources').where('id', 'in', ids).execute();
    for (const seriesId of new Set(rows.map((r) => r.series_id))) await dropSeriesIfEmpty(trx, seriesId);
  });
  await removeUnusedFiles(ctx, [
    ...rows.map((r) => ({ location: r.location, storage: r.storage_location })),
    ...versions.map((v) => ({ location: v.location, storage: v.storage_location })),
  ]);
  for (const id of ids) await ctx.previews.clear(id);
}
