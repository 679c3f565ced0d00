// Creating resources from bytes (companion §3.1–3.3, §3.10, §3.11): a staged upload, a remote
// download or an existing local file. The row, its first version and its links are written in
// one transaction; the staged file is renamed into place (durably) right before it, and removed
// again when the transaction fails, so a failed request leaves neither a row nor an orphan file.
import { basename, extname } from 'node:path';
import { createHash } from 'node:crypto';
import { badRequest, forbidden, notFound, HttpError } from '../../core/http/errors.js';
import { parseJson } from '../../core/db/values.js';
import { contentLocation, SNIFF_BYTES, type StagedFile } from '../../core/storage/file-store.js';
import { bareMime, extensionFor, sniffMime } from '../../core/storage/sniff.js';
import { InvalidImageError, uploadedImageSize } from '../../core/media/image.js';
import { probeVideo } from '../../core/media/ffmpeg.js';
import { open, type FileHandle } from 'node:fs/promises';
import { changedText, newRowStamp, withChange, type ChangeData } from '../common/changes.js';
import { jsonObjectText, validName } from '../common/names.js';
import { checkMeta } from '../meta/schema.js';
import type { Actor } from '../auth/principal.js';
import { OUTSIDE_SCOPE, SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import type { Database } from '../schema/database.js';
import type { Transaction } from 'kysely';
import { detectCategory } from './auto-detect.js';
import { joinSeries, requireSeries, resolveSeries } from './series-meta.js';
import { replaceLinks, requireIds } from './links.js';
import { Filesystems } from './storage.js';
import { CLIENT_LOCATION } from './files.js';
import { checkedSegments, openInside, UnsafePathError, type OpenedFile } from '../../core/storage/resolver.js';
import type { ResourceContext } from './context.js';
import type { ResourceRow } from './records.js';
import type { ResourceStores } from './stores.js';

type Trx = Transaction<Database>;

/** Fields of a resource write (upload, remote, local, edit). */
export interface ResourceWrite {
  Name?: string;
  Description?: string;
  OwnerId?: number;
  Groups?: number[];
  Tags?: number[];
  Notes?: number[];
  Meta?: string;
  Category?: string;
  ContentCategory?: string;
  ResourceCategoryId?: number;
  OriginalName?: string;
  OriginalLocation?: string;
  Width?: number;
  Height?: number;
  SeriesSlug?: string;
  SeriesId?: number;
  PathName?: string;
}

export class DuplicateError extends HttpError {
  constructor(readonly existingId: number) {
    super(409, `a resource with identical content already exists (#${existingId})`, { details: [{ error: `a resource with identical content already exists (#${existingId})`, existingResourceId: existingId }] });
  }
}

/** Everything known about the bytes before they become a resource. */
export interface Probed {
  mime: string;
  width: number;
  height: number;
}

export class IngestService {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly stores: ResourceStores,
  ) {}

  /** Detects type and dimensions; a claimed image that does not decode is a 400. */
  async probe(path: string, head: Buffer): Promise<Probed> {
    const mime = await sniffMime(head);
    const bare = bareMime(mime);
    let size = { width: 0, height: 0 };
    if (bare.startsWith('image/')) {
      try {
        size = await uploadedImageSize(path, bare);
      } catch (e) {
        if (e instanceof InvalidImageError) throw badRequest(e.message);
        throw e;
      }
    } else if (bare.startsWith('video/') && this.ctx.videoTool?.ffprobe) {
      size = await probeVideo(this.ctx.videoTool, path, 30_000).catch(() => size);
    }
    return { mime, width: size.width, height: size.height };
  }

  /** Checks every reference of a write once, before any file is stored (404/400 on failure). */
  async prevalidate(input: ResourceWrite, vis: Visibility): Promise<void> {
    this.ctx.fs.get(input.PathName);
    jsonObjectText(input.Meta, 'Meta');
    if (input.Name !== undefined && input.Name.trim() !== '') validName(input.Name);
    await this.ctx.lib.transactor.run(async (trx) => {
      await this.checkRefs(trx, input, vis, 'create');
      if (input.SeriesId !== undefined && input.SeriesId > 0) await requireSeries(this.stores.series.in(trx), input.SeriesId);
    });
  }

  /**
   * Every id the write names must exist (404) and be visible to `vis`. A confined caller must
   * give a new resource an owner inside its subtree and may not clear one (403, §10.10).
   */
  async checkRefs(trx: Trx, input: ResourceWrite, vis: Visibility, mode: 'create' | 'edit'): Promise<void> {
    const links = this.stores.links.in(trx);
    const clearing = mode === 'create' ? !input.OwnerId : input.OwnerId === 0;
    if (vis.kind === 'subtree' && clearing) throw forbidden('a group-limited account must give the resource an owner group inside its scope');
    if (input.OwnerId !== undefined && input.OwnerId !== 0) {
      await requireIds(links, 'groups', [input.OwnerId], 'owner group', SEE_ALL);
      if ((await links.existing('groups', [input.OwnerId], vis)).length === 0) throw forbidden(`owner group ${input.OwnerId} is ${OUTSIDE_SCOPE}`);
    }
    await requireIds(links, 'tags', input.Tags ?? [], 'tag', vis);
    await requireIds(links, 'groups', input.Groups ?? [], 'group', vis);
    await requireIds(links, 'notes', input.Notes ?? [], 'note', vis);
    if (input.ResourceCategoryId !== undefined && input.ResourceCategoryId !== 0) {
      if (!(await this.stores.refs.in(trx).category(input.ResourceCategoryId))) throw notFound(`resource category ${input.ResourceCategoryId} not found`);
    }
  }

  /** The given category, or the best AutoDetectRules match, or Default. */
  async categoryFor(trx: Trx, input: ResourceWrite, c: { contentType: string; fileSize: number; width: number; height: number }): Promise<number> {
    if (input.ResourceCategoryId) return input.ResourceCategoryId;
    const refs = this.stores.refs.in(trx);
    const cats = await refs.detectable();
    const detected = detectCategory(cats.map((x) => ({ id: x.id, name: x.name, rules: x.auto_detect_rules })), c, (m) => console.warn(m));
    if (detected !== null) return detected;
    return refs.fallbackCategory();
  }

  /** Validates meta against the resource category's MetaSchema (Decision 3). */
  async checkCategoryMeta(trx: Trx, categoryId: number, meta: Record<string, unknown>): Promise<void> {
    const cat = await this.stores.refs.in(trx).category(categoryId);
    if (cat) checkMeta(cat.meta_schema, meta, 'resource category', cat.name);
  }

  /**
   * Creates one resource from a staged file. Duplicates (same SHA-1 as any resource) are
   * refused with 409 under a per-hash lock. The staged file is consumed either way.
   */
  async fromStaged(actor: Actor, staged: StagedFile, fileName: string, input: ResourceWrite, duplicateStatus = 409): Promise<ResourceRow> {
    const store = this.ctx.fs.get(input.PathName);
    let probed: Probed;
    try {
      probed = await this.probe(staged.tempPath, staged.head);
    } catch (e) {
      await store.discard(staged);
      throw e;
    }
    return this.ctx.hashLock.with(staged.sha1, async () => {
      const dup = await this.stores.resources.idWithHash(staged.sha1);
      if (dup !== undefined) {
        await store.discard(staged);
        if (duplicateStatus === 409) throw new DuplicateError(dup);
        throw new HttpError(duplicateStatus, `a resource with identical content already exists (#${dup})`, { existingResourceId: dup });
      }
      const location = contentLocation(staged.sha1, extensionFor(probed.mime));
      let created = false;
      try {
        const row = await this.insert(actor, input, {
          fileName,
          hash: staged.sha1,
          size: staged.size,
          location,
          storage: Filesystems.keyOf(input.PathName),
          probed,
          place: async () => {
            created = await store.place(staged, location);
          },
        });
        return row;
      } catch (e) {
        if (created) await store.remove(location).catch(() => undefined);
        else await store.discard(staged);
        throw e;
      }
    });
  }

  /**
   * Registers an existing file of a filesystem without copying it. Idempotent: the same
   * location on the same filesystem returns the existing resource.
   */
  async fromLocal(actor: Actor, input: ResourceWrite & { LocalPath: string }): Promise<{ row: ResourceRow; existed: boolean }> {
    const store = this.ctx.fs.get(input.PathName);
    const storage = Filesystems.keyOf(input.PathName);
    if (!input.LocalPath || input.LocalPath.trim() === '') throw badRequest('LocalPath is required');
    // The same resolver as /files/… : no backslash, dot segment or private folder, no symlink
    // as the file and no symlinked folder leading out of the root.
    let file: OpenedFile;
    try {
      file = await openInside(store.root, input.LocalPath, CLIENT_LOCATION);
    } catch (e) {
      if (e instanceof UnsafePathError) throw badRequest(`LocalPath ${input.LocalPath} cannot be registered: ${e.message}`);
      if ((e as NodeJS.ErrnoException).code) throw badRequest(`LocalPath ${input.LocalPath} is not a file in that filesystem`);
      throw e;
    }
    const location = '/' + checkedSegments(input.LocalPath, CLIENT_LOCATION).join('/');
    const full = file.path;
    const info = { size: file.size };
    let hashed: { sha1: string; head: Buffer };
    try {
      const existing = await this.findLocal(location, storage);
      if (existing) return { row: existing, existed: true };
      hashed = await hashHandle(file.handle);
    } finally {
      await file.handle.close().catch(() => undefined);
    }
    const { sha1, head } = hashed;
    const probed = await this.probeLocal(full, head);
    const base = basename(full);
    const row = await this.insert(actor, { ...input, Name: input.Name?.trim() ? input.Name : base, OriginalName: input.OriginalName || input.Name || base }, {
      fileName: base,
      hash: sha1,
      size: info.size,
      location,
      storage,
      probed,
      place: async () => undefined,
    }).catch(async (e: unknown) => {
      // Two identical requests at once: the unique answer is the row the other one made.
      const again = await this.findLocal(location, storage);
      if (again) return again;
      throw e;
    });
    return { row, existed: false };
  }

  /** Local files are accepted as they are: an image that does not decode keeps 0×0. */
  private async probeLocal(path: string, head: Buffer): Promise<Probed> {
    try {
      return await this.probe(path, head);
    } catch {
      return { mime: await sniffMime(head), width: 0, height: 0 };
    }
  }

  private async findLocal(location: string, storage: string | null): Promise<ResourceRow | undefined> {
    return this.stores.resources.findAt({ location, storage });
  }

  /**
   * Inserts the row, version 1 and links in one transaction. `place` runs right before it, not
   * inside: the file must be durably in place before COMMIT either way, and on SQLite a
   * transaction holds the only connection, so a rename and directory fsync inside it made every
   * other request's statements — and concurrent uploads' transactions — wait for the disk.
   */
  async insert(
    actor: Actor,
    input: ResourceWrite,
    file: { fileName: string; hash: string; size: number; location: string; storage: string | null; probed: Probed; place: () => Promise<void> },
  ): Promise<ResourceRow> {
    const meta = parseJson<Record<string, unknown>>(jsonObjectText(input.Meta, 'Meta'), {});
    const name = input.Name && input.Name.trim() !== '' ? validName(input.Name) : trimName(file.fileName || file.hash);
    const width = input.Width && input.Width > 0 ? input.Width : file.probed.width;
    const height = input.Height && input.Height > 0 ? input.Height : file.probed.height;
    const bare = bareMime(file.probed.mime);
    // What before-hooks see and may rewrite (library-plugins.md §16.3): meta as submitted.
    const data: ChangeData = { id: 0, name, description: input.Description ?? '', meta: input.Meta ?? '' };
    const row = await withChange(this.ctx.lib.bus, actor, 'create', 'resource', async () => {
      const finalName = changedText(data, 'name', name) === name ? name : validName(changedText(data, 'name', name));
      const finalMeta = data.meta === (input.Meta ?? '') ? meta : parseJson<Record<string, unknown>>(jsonObjectText(changedText(data, 'meta', '') || '{}', 'Meta'), {});
      await file.place();
      const created = await this.ctx.lib.transactor.run(async (trx) => {
        const stores = this.stores.in(trx);
        await this.checkRefs(trx, input, visibilityOf(actor.principal), 'create');
        const categoryId = await this.categoryFor(trx, input, { contentType: file.probed.mime, fileSize: file.size, width, height });
        await this.checkCategoryMeta(trx, categoryId, finalMeta);
        const seriesId = (await resolveSeries(stores.series, actor, input)) ?? null;
        const metaCols = seriesId !== null ? await joinSeries(stores.series, seriesId, finalMeta) : { meta: JSON.stringify(finalMeta), own_meta: '{}' };
        const stamp = newRowStamp(actor);
        const resourceId = await stores.resources.insert({
          ...stamp,
          name: finalName,
          // A form sends an empty field for "not given": the uploaded file's own name is kept.
          original_name: input.OriginalName || file.fileName,
          original_location: input.OriginalLocation ?? '',
          hash: file.hash,
          hash_type: 'SHA1',
          location: file.location,
          storage_location: file.storage,
          description: changedText(data, 'description', input.Description ?? ''),
          ...metaCols,
          width,
          height,
          file_size: file.size,
          category: input.Category ?? '',
          content_type: file.probed.mime,
          content_category: input.ContentCategory ?? bare.split('/')[0],
          resource_category_id: categoryId,
          series_id: seriesId,
          owner_id: input.OwnerId || null,
          current_version_id: null,
        });
        const version = await stores.versions.insert({
          created_at: stamp.created_at,
          updated_at: stamp.created_at,
          created_by_user_id: stamp.created_by_user_id,
          resource_id: resourceId,
          version_number: 1,
          hash: file.hash,
          hash_type: 'SHA1',
          file_size: file.size,
          content_type: file.probed.mime,
          width,
          height,
          location: file.location,
          storage_location: file.storage,
          comment: 'Original',
        });
        await stores.resources.patch(resourceId, { current_version_id: version.id });
        await replaceLinks(stores.links, resourceId, { Tags: input.Tags ?? [], Groups: input.Groups ?? [], Notes: input.Notes ?? [] }, SEE_ALL);
        const inserted = await stores.resources.find(resourceId, SEE_ALL);
        if (!inserted) throw new Error(`resource ${resourceId} vanished inside its own transaction`);
        return inserted;
      });
      return { id: created.id, name: created.name, after: created, result: created };
    }, { data });
    this.ctx.fileChanged(row.id, row.content_type);
    return row;
  }
}

/** Generated names keep at most 1000 bytes, preserving the extension (companion §12.1). */
export function trimName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  let name = raw.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '').trim() || 'unnamed';
  if (Buffer.byteLength(name) <= 1000) return name;
  const ext = extname(name).slice(0, 20);
  name = name.slice(0, name.length - ext.length);
  while (Buffer.byteLength(name + ext) > 1000) name = name.slice(0, -1);
  return name + ext;
}

/** SHA-1 and the first bytes of an existing file, read as a stream. */
export async function hashFile(path: string): Promise<{ sha1: string; head: Buffer }> {
  const fh = await open(path, 'r');
  try {
    return await hashHandle(fh);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** SHA-1 and sniffing head of an open file, read from its start; the caller closes it. */
async function hashHandle(fh: FileHandle): Promise<{ sha1: string; head: Buffer }> {
  const hash = createHash('sha1');
  let head = Buffer.alloc(0);
  for await (const chunk of fh.createReadStream({ highWaterMark: 1 << 20, autoClose: false, start: 0 })) {
    const b = chunk as Buffer;
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, b.subarray(0, SNIFF_BYTES - head.length)]);
    hash.update(b);
  }
  return { sha1: hash.digest('hex'), head };
}

