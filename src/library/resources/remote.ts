// /v1/resource/remote and the URL field of uploads: each URL is fetched through safeFetch (the
// private-address policy, timeouts and the upload size cap apply), staged, and ingested like an
// upload; a download whose bytes already exist is a 400 (contract).
import { badRequest, HttpError } from '../../core/http/errors.js';
import { FetchError, safeFetch } from '../../core/net/safe-fetch.js';
import type { Actor } from '../auth/principal.js';
import { visibilityOf } from '../auth/visibility.js';
import { newRowStamp } from '../common/changes.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { ResourceContext } from './context.js';
import type { IngestService, ResourceWrite } from './ingest.js';
import { trimName } from './ingest.js';
import type { ResourceRow } from './records.js';
import type { StagedFile } from '../../core/storage/file-store.js';
import type { DownloadImporter } from '../downloads/kind.js';
import type { ResourceReferenceRepository } from './references.repository.js';

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

export class RemoteImports {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly ingest: IngestService,
    private readonly refs: ResourceReferenceRepository,
  ) {}

  /** The owner group named by GroupName (and GroupCategoryName), created when missing. */
  private async ownerFromGroupFields(actor: Actor, input: Omit<RemoteInput, 'URL'>): Promise<number | undefined> {
    if (!input.GroupName || input.GroupName.trim() === '') return undefined;
    const name = validName(input.GroupName, 'GroupName');
    const meta = jsonObjectText(input.GroupMeta, 'GroupMeta');
    return this.ctx.lib.transactor.run(async (trx) => {
      const refs = this.refs.in(trx);
      let categoryId: number | null = null;
      if (input.GroupCategoryName && input.GroupCategoryName.trim() !== '') {
        const catName = validName(input.GroupCategoryName, 'GroupCategoryName');
        categoryId = (await refs.groupCategoryNamed(catName)) ?? (await refs.insertGroupCategory({ ...newRowStamp(actor), name: catName }));
      }
      return (await refs.groupNamed(name, categoryId)) ?? refs.insertGroup({ ...newRowStamp(actor), name, description: '', meta, owner_id: null, category_id: categoryId, url: null });
    });
  }

  /** Resolves the owner (GroupName auto-creates it) and checks references once for all URLs. */
  private async base(actor: Actor, input: Omit<RemoteInput, 'URL'>): Promise<ResourceWrite> {
    const ownerId = (await this.ownerFromGroupFields(actor, input)) ?? input.OwnerId;
    // SeriesId is ignored on remote imports (contract); OriginalName/Location come from the URL.
    const base: ResourceWrite = { ...input, OwnerId: ownerId, SeriesId: undefined };
    await this.ingest.prevalidate(base, visibilityOf(actor.principal));
    return base;
  }

  /** Stores fetched bytes like an upload; a download whose bytes already exist is a 400. */
  private async ingestFetched(actor: Actor, base: ResourceWrite, input: Omit<RemoteInput, 'URL'>, url: string, staged: StagedFile, serverName = ''): Promise<ResourceRow> {
    const fileName = input.FileName?.trim() ? trimName(input.FileName) : serverName.trim() ? trimName(serverName) : nameFromUrl(url);
    return this.ingest.fromStaged(actor, staged, fileName, { ...base, Name: input.Name?.trim() ? input.Name : fileName, OriginalName: url, OriginalLocation: url }, 400);
  }

  /** Fetches each URL now and stores it; answers the first resource. */
  async importRemote(actor: Actor, input: RemoteInput): Promise<ResourceRow> {
    const urls = splitUrls(input.URL ?? '');
    if (urls.length === 0) throw badRequest('URL is required');
    const base = await this.base(actor, input);
    const store = this.ctx.fs.get(input.PathName);
    const settings = this.ctx.lib.settings;
    const limit = Number(settings.get('max_upload_size'));
    let first: ResourceRow | undefined;
    for (const url of urls) {
      let staged;
      try {
        const res = await safeFetch(url, {
          policy: this.ctx.lib.config.fetchPolicy,
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
      const row = await this.ingestFetched(actor, base, input, url, staged);
      first ??= row;
    }
    return first!;
  }

  /** The download queue's importer: a queued job's body becomes a resource as its submitter. */
  readonly importDownload: DownloadImporter = async (d) => {
    const actor: Actor = { principal: d.owner };
    const base = await this.base(actor, d.payload);
    const staged = await this.ctx.fs.get(d.payload.PathName).stage(d.body);
    d.bodyRead();
    return (await this.ingestFetched(actor, base, d.payload, d.payload.url, staged, d.fileName)).id;
  };
}
