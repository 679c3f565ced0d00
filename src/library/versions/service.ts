// Resource versions (contract: Resource versions; companion §3.6): every change of a resource's
// current file is a new numbered version that becomes current; restore copies an old version's
// fields into a new one (no file copy); delete and cleanup remove rows and, when nothing else
// uses them, files. All changes of one resource's file run under its version lock.
import { extname } from 'node:path';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import { contentLocation, type StagedFile } from '../../core/storage/file-store.js';
import { bareMime, extensionFor } from '../../core/storage/sniff.js';
import type { Actor } from '../auth/principal.js';
import { visibilityOf, type Visibility } from '../auth/visibility.js';
import { withChange } from '../common/changes.js';
import type { ResourceContext } from '../resources/context.js';
import type { IngestService } from '../resources/ingest.js';
import { versionRecord, type ResourceRow, type VersionRow } from '../resources/records.js';
import type { ResourceRemoval } from '../resources/removal.js';
import type { ResourceStores } from '../resources/stores.js';

export interface NewVersionFile {
  staged: StagedFile;
  mime: string;
  width: number;
  height: number;
  /** Extension of the stored file, e.g. ".jpg". */
  ext: string;
  comment: string;
}

export class VersionService {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly stores: ResourceStores,
    private readonly ingest: IngestService,
    private readonly removal: ResourceRemoval,
  ) {}

  /** The resource, or 404 when it does not exist or `vis` may not see it. */
  private async resource(vis: Visibility, id: number | undefined): Promise<ResourceRow> {
    if (id === undefined) throw badRequest('resourceId is required');
    const row = await this.stores.resources.find(id, vis);
    if (!row) throw notFound(`resource ${id} not found`);
    return row;
  }

  async list(vis: Visibility, resourceId: number) {
    await this.resource(vis, resourceId);
    return (await this.stores.versions.listFor(resourceId)).map(versionRecord);
  }

  /** A version of a resource `vis` may see (404 otherwise). */
  async get(vis: Visibility, versionId: number): Promise<VersionRow> {
    const v = await this.stores.versions.find(versionId);
    if (!v || !(await this.stores.resources.find(v.resource_id, vis))) throw notFound(`version ${versionId} not found`);
    return v;
  }

  /** Version number `n` of a resource (400 when it has none of that number). */
  async numbered(resourceId: number, n: number): Promise<VersionRow> {
    const v = await this.stores.versions.numbered(resourceId, n);
    if (!v) throw badRequest(`resource ${resourceId} has no version ${n}`);
    return v;
  }

  /** Gives a resource without version rows its version 1 (older data, bulk imports). */
  async ensureVersionOne(stores: ResourceStores, row: ResourceRow, comment = 'Original'): Promise<void> {
    if (await stores.versions.hasAny(row.id)) return;
    const v = await stores.versions.insert({
      created_at: row.created_at,
      updated_at: row.created_at,
      created_by_user_id: row.created_by_user_id,
      resource_id: row.id,
      version_number: 1,
      hash: row.hash,
      hash_type: row.hash_type,
      file_size: row.file_size,
      content_type: row.content_type,
      width: row.width,
      height: row.height,
      location: row.location,
      storage_location: row.storage_location,
      comment,
    });
    await stores.resources.patch(row.id, { current_version_id: v.id });
  }

  /** Inserts a version row and makes it the resource's current file (inside a transaction). */
  private async makeCurrent(stores: ResourceStores, actor: Actor, resourceId: number, fields: Omit<VersionRow, 'id' | 'created_at' | 'updated_at' | 'created_by_user_id' | 'resource_id' | 'version_number'>): Promise<VersionRow> {
    const now = nowIso();
    const number = (await stores.versions.lastNumber(resourceId)) + 1;
    const v = await stores.versions.insert({ ...fields, created_at: now, updated_at: now, created_by_user_id: actor.principal.userId, resource_id: resourceId, version_number: number });
    await stores.resources.patch(resourceId, {
      hash: v.hash,
      hash_type: v.hash_type,
      location: v.location,
      storage_location: v.storage_location,
      content_type: v.content_type,
      file_size: v.file_size,
      width: v.width,
      height: v.height,
      current_version_id: v.id,
      updated_at: now,
    });
    return v;
  }

  /**
   * Stores a new file on the main filesystem as the resource's new current version; used by
   * version upload, rotate, crop and trim. `firstComment` names version 1 when the resource
   * had none yet.
   */
  async addFile(actor: Actor, resourceId: number, file: NewVersionFile, firstComment = 'Original'): Promise<VersionRow> {
    // Under the hash lock, as a new upload of the same bytes: a failed write removes the file it
    // placed, so no other placement of these bytes may find that file and rely on it meanwhile.
    return this.ctx.hashLock.with(file.staged.sha1, () => this.addFileLocked(actor, resourceId, file, firstComment));
  }

  private async addFileLocked(actor: Actor, resourceId: number, file: NewVersionFile, firstComment: string): Promise<VersionRow> {
    const store = this.ctx.fs.main;
    const location = contentLocation(file.staged.sha1, file.ext);
    let created = false;
    try {
      const version = await withChange(this.ctx.lib.bus, actor, 'create', 'resource_version', async () => {
        // Durably in place before the transaction, not inside it (see IngestService.insert).
        created = await store.place(file.staged, location);
        const v = await this.ctx.lib.transactor.run(async (trx) => {
          const stores = this.stores.in(trx);
          const row = await stores.resources.find(resourceId, visibilityOf(actor.principal));
          if (!row) throw notFound(`resource ${resourceId} not found`);
          await this.ensureVersionOne(stores, row, firstComment);
          const inserted = await this.makeCurrent(stores, actor, resourceId, {
            hash: file.staged.sha1,
            hash_type: 'SHA1',
            file_size: file.staged.size,
            content_type: file.mime,
            width: file.width,
            height: file.height,
            location,
            storage_location: null,
            comment: file.comment,
          });
          return inserted;
        });
        return { id: v.id, name: `version ${v.version_number} of resource ${resourceId}`, after: v, result: v };
      });
      await this.afterFileChange(resourceId, file.mime);
      return version;
    } catch (e) {
      if (created) await store.remove(location).catch(() => undefined);
      else await store.discard(file.staged);
      throw e;
    }
  }

  private async afterFileChange(resourceId: number, mime: string): Promise<void> {
    await this.ctx.previews.clear(resourceId);
    this.ctx.fileChanged(resourceId, mime);
  }

  /** POST /v1/resource/versions: an uploaded file becomes the new current version. */
  async upload(actor: Actor, resourceId: number, staged: StagedFile, fileName: string, comment: string) {
    try {
      await this.resource(visibilityOf(actor.principal), resourceId);
    } catch (e) {
      await this.ctx.fs.main.discard(staged);
      throw e;
    }
    return this.ctx.versionLock.with(String(resourceId), async () => {
      let probed;
      try {
        probed = await this.ingest.probe(staged.tempPath, staged.head);
      } catch (e) {
        await this.ctx.fs.main.discard(staged);
        throw e;
      }
      const fromName = extname(fileName).toLowerCase();
      const ext = /^\.[a-z0-9]{1,10}$/.test(fromName) ? fromName : extensionFor(probed.mime);
      return this.addFile(actor, resourceId, { staged, mime: probed.mime, width: probed.width, height: probed.height, ext, comment });
    });
  }

  async restore(actor: Actor, resourceId: number, versionId: number, comment?: string): Promise<VersionRow> {
    await this.resource(visibilityOf(actor.principal), resourceId);
    const old = await this.get(visibilityOf(actor.principal), versionId);
    if (old.resource_id !== resourceId) throw badRequest(`version ${versionId} belongs to resource ${old.resource_id}, not ${resourceId}`);
    return this.ctx.versionLock.with(String(resourceId), async () => {
      const v = await withChange(this.ctx.lib.bus, actor, 'create', 'resource_version', async () => {
        const inserted = await this.ctx.lib.transactor.run((trx) =>
          this.makeCurrent(this.stores.in(trx), actor, resourceId, {
            hash: old.hash,
            hash_type: old.hash_type,
            file_size: old.file_size,
            content_type: old.content_type,
            width: old.width,
            height: old.height,
            location: old.location,
            storage_location: old.storage_location,
            comment: comment?.trim() ? comment : `Restored from version ${old.version_number}`,
          }),
        );
        return { id: inserted.id, name: `version ${inserted.version_number} of resource ${resourceId}`, after: inserted, result: inserted };
      });
      await this.afterFileChange(resourceId, v.content_type);
      return v;
    });
  }

  async delete(actor: Actor, resourceId: number, versionId: number): Promise<void> {
    const resource = await this.resource(visibilityOf(actor.principal), resourceId);
    const v = await this.get(visibilityOf(actor.principal), versionId);
    if (v.resource_id !== resourceId) throw badRequest(`version ${versionId} belongs to resource ${v.resource_id}, not ${resourceId}`);
    await this.ctx.versionLock.with(String(resourceId), async () => {
      const current = await this.resource(visibilityOf(actor.principal), resourceId);
      if (current.current_version_id === v.id) throw conflict('cannot delete current version');
      if ((await this.stores.versions.count(resourceId)) <= 1) throw conflict('cannot delete last version - delete the resource instead');
      await withChange(this.ctx.lib.bus, actor, 'delete', 'resource_version', async () => {
        await this.stores.versions.remove([v.id]);
        return { id: v.id, name: `version ${v.version_number} of resource ${resource.id}`, before: v, result: undefined };
      });
      await this.removal.removeUnusedFiles([{ location: v.location, storage: v.storage_location }]);
    });
  }

  /** Non-current versions to clean up: all but the keepLast newest, older than the cutoff. */
  private async candidates(resourceId: number, currentId: number | null, keepLast: number, olderThanDays: number): Promise<VersionRow[]> {
    const all = await this.stores.versions.listFor(resourceId);
    const kept = new Set(all.slice(0, Math.max(0, keepLast)).map((v) => v.id));
    const cutoff = olderThanDays > 0 ? new Date(Date.now() - olderThanDays * 86_400_000).toISOString() : null;
    const picked = all.filter((v) => v.id !== currentId && !kept.has(v.id) && (cutoff === null || v.created_at < cutoff));
    // Never every version of a resource: one always stays.
    return picked.length >= all.length ? picked.slice(0, all.length - 1) : picked;
  }

  private async removeVersions(actor: Actor, resourceId: number, versions: VersionRow[]): Promise<void> {
    if (versions.length === 0) return;
    await withChange(this.ctx.lib.bus, actor, 'delete', 'resource_version', async () => {
      await this.stores.versions.remove(versions.map((v) => v.id));
      return { id: resourceId, message: `Cleaned up versions ${versions.map((v) => v.version_number).join(', ')} of resource ${resourceId}`, result: undefined };
    });
    await this.removal.removeUnusedFiles(versions.map((v) => ({ location: v.location, storage: v.storage_location })));
  }

  async cleanup(actor: Actor, resourceId: number, opts: { keepLast?: number; olderThanDays?: number; dryRun?: boolean }) {
    checkCleanup(opts);
    const resource = await this.resource(visibilityOf(actor.principal), resourceId);
    return this.ctx.versionLock.with(String(resourceId), async () => {
      const victims = await this.candidates(resourceId, resource.current_version_id, opts.keepLast ?? 0, opts.olderThanDays ?? 0);
      if (!opts.dryRun) await this.removeVersions(actor, resourceId, victims);
      return { deletedVersionIds: victims.map((v) => v.id), count: victims.length };
    });
  }

  /** Every resource (or those of one owner) in batches of 500; only resources with deletions are reported. */
  async cleanupAll(actor: Actor, opts: { keepLast?: number; olderThanDays?: number; ownerId?: number; dryRun?: boolean }) {
    checkCleanup(opts);
    const deletedByResource: Record<string, number[]> = {};
    let totalDeleted = 0;
    let after = 0;
    for (;;) {
      // Only resources that have a non-current version can lose one.
      const batch = await this.stores.versions.withOlderVersions(after, opts.ownerId, 500);
      if (batch.length === 0) break;
      // A confined caller cleans only the resources it can see.
      const seen = new Set((await this.stores.resources.findMany(batch.map((r) => r.id), visibilityOf(actor.principal))).map((r) => r.id));
      for (const r of batch.filter((b) => seen.has(b.id))) {
        await this.ctx.versionLock.with(String(r.id), async () => {
          const victims = await this.candidates(r.id, r.current_version_id, opts.keepLast ?? 0, opts.olderThanDays ?? 0);
          if (victims.length === 0) return;
          if (!opts.dryRun) await this.removeVersions(actor, r.id, victims);
          deletedByResource[String(r.id)] = victims.map((v) => v.id);
          totalDeleted += victims.length;
        });
      }
      after = batch[batch.length - 1].id;
    }
    return { deletedByResource, totalDeleted };
  }

  async compare(vis: Visibility, resourceId: number, v1: number, v2: number) {
    await this.resource(vis, resourceId);
    const [a, b] = await Promise.all([this.get(vis, v1), this.get(vis, v2)]);
    for (const v of [a, b]) if (v.resource_id !== resourceId) throw badRequest(`version ${v.id} belongs to resource ${v.resource_id}, not ${resourceId}`);
    return comparison(a, b);
  }
}

function checkCleanup(opts: { keepLast?: number; olderThanDays?: number }): void {
  if (opts.keepLast !== undefined && opts.keepLast < 0) throw badRequest('keepLast must not be negative');
  if (opts.olderThanDays !== undefined && opts.olderThanDays < 0) throw badRequest('olderThanDays must not be negative');
}

/** The comparison object (contract: Resource version). */
export function comparison(a: VersionRow, b: VersionRow, resources?: { r1: unknown; r2: unknown }) {
  const crossResource = a.resource_id !== b.resource_id;
  return {
    version1: versionRecord(a),
    version2: versionRecord(b),
    ...(crossResource && resources ? { resource1: resources.r1, resource2: resources.r2 } : {}),
    sizeDelta: Number(b.file_size) - Number(a.file_size),
    sameHash: a.hash === b.hash,
    sameType: bareMime(a.content_type) === bareMime(b.content_type),
    dimensionsDiff: a.width !== b.width || a.height !== b.height,
    crossResource,
  };
}
