// /v1/resource/remote and the URL field of uploads: each URL is fetched through safeFetch (the
// private-address policy, timeouts and the upload size cap apply), staged, and ingested like an
// upload; a download whose bytes already exist is a 400 (contract).
import { badRequest, HttpError } from '../../core/http/errors.js';
import { FetchError, safeFetch } from '../../core/net/safe-fetch.js';
import type { Actor } from '../auth/principal.js';
import { newRowStamp } from '../common/crud.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { ResourceContext } from './context.js';
import type { IngestService, ResourceWrite } from './ingest.js';
import { trimName } from './ingest.js';
import type { ResourceRow } from './records.js';
import type { StagedFile } from '../../core/storage/file-store.js';
import type { DownloadImporter } from '../downloads/kind.js';

export interface RemoteInput extends ResourceWrite {
  URL: string;
  FileName?: string;
  GroupCategoryName?: string;
  GroupName?: string;
  GroupMeta?: string;
}

export function splitUrls(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** A readable name from the URL's last path segment (or its host). */
export function nameFromUrl(url: string): string {
  try {
    const u = new URL(url);
    const last = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '');
    return trimName(last || u.hostname);
  } catch {
    return trimName(url);
  }
}

/** The owner group named by GroupName (and GroupCategoryName), created when missing. */
async function ownerFromGroupFields(ctx: ResourceContext, actor: Actor, input: Omit<RemoteInput, 'URL'>): Promise<number | undefined> {
  if (!input.GroupName || input.GroupName.trim() === '') return undefined;
  const name = validName(input.GroupName, 'GroupName');
  const meta = jsonObjectText(input.GroupMeta, 'GroupMeta');
  return ctx.lib.db.transaction().execute(async (trx) => {
    let categoryId: number | null = null;
    if (input.GroupCategoryName && input.GroupCategoryName.trim() !== '') {
      const catName = validName(input.GroupCategoryName, 'GroupCategoryName');
      const cat = await trx.selectFrom('categories').select('id').where('name', '=', catName).executeTakeFirst();
      categoryId = cat ? cat.id : (await trx.insertInto('categories').values({ ...newRowStamp(actor), name: catName, section_config: '{}' } as never).returning('id').executeTakeFirstOrThrow()).id;
    }
    let q = trx.selectFrom('groups').select('id').where('name', '=', name);
    q = categoryId === null ? q : q.where('category_id', '=', categoryId);
    const existing = await q.orderBy('id').executeTakeFirst();
    if (existing) return existing.id;
    const created = await trx.insertInto('groups').values({ ...newRowStamp(actor), name, description: '', meta, owner_id: null, category_id: categoryId, url: null }).returning('id').executeTakeFirstOrThrow();
    return created.id;
  });
}

/** Resolves the owner (GroupName auto-creates it) and checks references once for all URLs. */
export async function remoteBase(ctx: ResourceContext, ingest: IngestService, actor: Actor, input: Omit<RemoteInput, 'URL'>): Promise<ResourceWrite> {
  const ownerId = (await ownerFromGroupFields(ctx, actor, input)) ?? input.OwnerId;
  // SeriesId is ignored on remote imports (contract); OriginalName/Location come from the URL.
  const base: ResourceWrite = { ...input, OwnerId: ownerId, SeriesId: undefined };
  await ingest.prevalidate(base);
  return base;
}

/** Stores fetched bytes like an upload; a download whose bytes already exist is a 400. */
export async function ingestFetched(
  ingest: IngestService,
  actor: Actor,
  base: ResourceWrite,
  input: Omit<RemoteInput, 'URL'>,
  url: string,
  staged: StagedFile,
  serverName = '',
): Promise<ResourceRow> {
  const fileName = input.FileName?.trim() ? trimName(input.FileName) : serverName.trim() ? trimName(serverName) : nameFromUrl(url);
  return ingest.fromStaged(actor, staged, fileName, { ...base, Name: input.Name?.trim() ? input.Name : fileName, OriginalName: url, OriginalLocation: url }, 400);
}

export async function importRemote(ctx: ResourceContext, ingest: IngestService, actor: Actor, input: RemoteInput): Promise<ResourceRow> {
  const urls = splitUrls(input.URL ?? '');
  if (urls.length === 0) throw badRequest('URL is required');
  const base = await remoteBase(ctx, ingest, actor, input);
  const store = ctx.fs.get(input.PathName);
  const settings = ctx.lib.settings;
  const limit = Number(settings.get('max_upload_size'));
  let first: ResourceRow | undefined;
  for (const url of urls) {
    let staged;
    try {
      const res = await safeFetch(url, {
        policy: ctx.lib.config.fetchPolicy,
        connectTimeoutMs: settings.millis('remote_connect_timeout'),
        idleTimeoutMs: settings.millis('remote_idle_timeout'),
        overallTimeoutMs: settings.millis('remote_overall_timeout'),
        maxBytes: limit > 0 ? limit : undefined,
      });
      if (res.status < 200 || res.status > 299) {
        res.body.destroy();
        throw badRequest(`downloading ${url} failed: the server answered HTTP ${res.status}`);
      }
      staged = await store.stage(res.body);
    } catch (e) {
      if (e instanceof HttpError) throw e;
      if (e instanceof FetchError) throw new HttpError(e.reason === 'limit' ? 413 : 400, `downloading ${url} failed: ${e.message}`);
      throw badRequest(`downloading ${url} failed: ${(e as Error).message}`);
    }
    const row = await ingestFetched(ingest, actor, base, input, url, staged);
    first ??= row;
  }
  return first!;
}

/** The download queue's importer: a queued job's body becomes a resource as its submitter. */
export function downloadImporter(ctx: ResourceContext, ingest: IngestService): DownloadImporter {
  return async (d) => {
    const root = ctx.lib.root;
    const actor: Actor = { principal: { ...root, userId: d.ownerUserId ?? root.userId } };
    const base = await remoteBase(ctx, ingest, actor, d.payload);
    const staged = await ctx.fs.get(d.payload.PathName).stage(d.body);
    d.bodyRead();
    return (await ingestFetched(ingest, actor, base, d.payload, d.payload.url, staged, d.fileName)).id;
  };
}
