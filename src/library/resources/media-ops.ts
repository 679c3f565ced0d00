// Rotate, crop, trim and dimension recalculation (companion §3.2, §3.5). Each edit of the file
// becomes a new current version (or, for a crop with AsNewResource, a new resource that
// inherits owner, related groups, tags and resource category).
import { extname, join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createReadStream } from 'node:fs';
import { badRequest, HttpError } from '../../core/http/errors.js';
import { bareMime } from '../../core/storage/sniff.js';
import { EDITABLE_IMAGE_TYPES, cropImage, readSize, rotateImage, type Reencoded } from '../../core/media/image.js';
import { parseTimestamp, probeVideo, trimVideo } from '../../core/media/ffmpeg.js';
import type { Actor } from '../auth/principal.js';
import { visibilityOf } from '../auth/visibility.js';
import { withChange } from '../common/changes.js';
import { rewrittenFields, snapshotItems } from '../massEdit/rewrites.js';
import type { VersionService } from '../versions/service.js';
import type { ResourceContext } from './context.js';
import type { IngestService } from './ingest.js';
import { trimName } from './ingest.js';
import type { ResourceService } from './service.js';
import { videoToolMissing } from './previews.js';
import type { ResourceRow } from './records.js';
import type { ResourceStores } from './stores.js';

const NOT_EDITABLE = new Set(['image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon']);

function requireRaster(row: ResourceRow, op: string): string {
  const mime = bareMime(row.content_type);
  if (!EDITABLE_IMAGE_TYPES.includes(mime) || NOT_EDITABLE.has(mime)) {
    throw badRequest(`${op} needs a raster image (${EDITABLE_IMAGE_TYPES.join(', ')}); resource ${row.id} is ${mime || 'of unknown type'}`);
  }
  return mime;
}

const extFor = (mime: string) => (mime === 'image/jpeg' ? '.jpg' : '.png');

export class MediaOps {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly resources: ResourceService,
    private readonly ingest: IngestService,
    private readonly versions: VersionService,
    private readonly stores: ResourceStores,
  ) {}

  private path(row: ResourceRow): string {
    return this.ctx.fs.get(row.storage_location).resolve(row.location);
  }

  private async edited(row: ResourceRow, op: string, work: (path: string, mime: string) => Promise<Reencoded>): Promise<Reencoded> {
    const mime = requireRaster(row, op);
    try {
      return await work(this.path(row), mime);
    } catch (e) {
      if (e instanceof HttpError) throw e;
      throw new HttpError(415, `the stored file could not be decoded as an image: ${(e as Error).message}`);
    }
  }

  async rotate(actor: Actor, id: number | undefined, degrees: number): Promise<void> {
    if (!Number.isInteger(degrees)) throw badRequest('Degrees must be an integer');
    const row = await this.resources.require(visibilityOf(actor.principal), id);
    await this.ctx.versionLock.with(String(row.id), async () => {
      const out = await this.edited(row, 'rotate', (path, mime) => rotateImage(path, degrees, mime));
      const staged = await this.ctx.fs.main.stageBuffer(out.data);
      await this.versions.addFile(actor, row.id, { staged, mime: out.mime, width: out.width, height: out.height, ext: extFor(out.mime), comment: `Rotated ${degrees} degrees${out.note}` }, 'Original (before rotation)');
    });
  }

  async crop(actor: Actor, input: { ID: number; X: number; Y: number; Width: number; Height: number; Comment?: string; AsNewResource?: boolean }): Promise<{ ok: true; id?: number }> {
    const row = await this.resources.require(visibilityOf(actor.principal), input.ID);
    const rect = { x: input.X, y: input.Y, width: input.Width, height: input.Height };
    if (![rect.x, rect.y, rect.width, rect.height].every(Number.isInteger)) throw badRequest('X, Y, Width and Height must be integers');
    if (rect.width <= 0 || rect.height <= 0) throw badRequest('Width and Height must be positive');
    if (rect.x < 0 || rect.y < 0) throw badRequest('X and Y must not be negative');
    requireRaster(row, 'crop');
    const size = await readSize(this.path(row));
    if (!size) throw new HttpError(415, 'the stored file could not be decoded as an image');
    if (rect.x + rect.width > size.width || rect.y + rect.height > size.height) {
      throw badRequest(`the crop rectangle ${rect.width}×${rect.height} at ${rect.x},${rect.y} does not fit inside the ${size.width}×${size.height} image`);
    }
    const comment = input.Comment?.trim() ?? '';
    if (!input.AsNewResource) {
      await this.ctx.versionLock.with(String(row.id), async () => {
        const out = await this.edited(row, 'crop', (path, mime) => cropImage(path, rect, mime));
        const staged = await this.ctx.fs.main.stageBuffer(out.data);
        await this.versions.addFile(actor, row.id, { staged, mime: out.mime, width: out.width, height: out.height, ext: extFor(out.mime), comment: (comment || `Cropped to ${rect.width}×${rect.height}`) + out.note }, 'Original (before crop)');
      });
      return { ok: true };
    }
    const out = await this.edited(row, 'crop', (path, mime) => cropImage(path, rect, mime));
    const staged = await this.ctx.fs.main.stageBuffer(out.data);
    const base = row.name.slice(0, row.name.length - extname(row.name).length) || row.name;
    const fileBase = row.original_name ? row.original_name.slice(0, row.original_name.length - extname(row.original_name).length) : base;
    const [tags, groups] = await Promise.all([this.stores.links.targetsOf('tags', [row.id]), this.stores.links.targetsOf('groups', [row.id])]);
    const description = `Cropped from ${row.name} (#${row.id}) at ${rect.x},${rect.y} ${rect.width}×${rect.height}${out.note}` + (comment ? `\n\n${comment}` : '');
    const created = await this.ingest.fromStaged(actor, staged, trimName(`${fileBase}-cropped${extFor(out.mime)}`), {
      Name: trimName(`${base} (cropped)`),
      Description: description,
      OwnerId: row.owner_id ?? undefined,
      Tags: tags,
      Groups: groups,
      ResourceCategoryId: row.resource_category_id,
    });
    return { ok: true, id: created.id };
  }

  async trim(actor: Actor, input: { ID: number; Start: string; End: string; Comment?: string }): Promise<void> {
    const row = await this.resources.require(visibilityOf(actor.principal), input.ID);
    if (!bareMime(row.content_type).startsWith('video/')) throw badRequest(`trim needs a video (video/*); resource ${row.id} is ${bareMime(row.content_type)}`);
    const start = parseTimestamp(input.Start ?? '');
    const end = parseTimestamp(input.End ?? '');
    if (start === null || end === null) throw badRequest('Start and End must be seconds, MM:SS or HH:MM:SS');
    if (!(start < end)) throw badRequest('Start must be before End');
    const tool = this.ctx.videoTool;
    if (!tool) throw new HttpError(503, 'trimming needs ffmpeg, which is not installed or not configured (-ffmpeg-path)');
    await this.ctx.versionLock.with(String(row.id), async () => {
      const dir = await mkdtemp(join(tmpdir(), 'stacks-trim-'));
      try {
        const out = join(dir, 'trimmed.mp4');
        try {
          await trimVideo(tool, this.path(row), start, end, out, 10 * 60_000);
        } catch (e) {
          throw badRequest(`the video could not be trimmed: ${(e as Error).message}`);
        }
        const info = await probeVideo(tool, out, 30_000).catch(() => ({ width: row.width, height: row.height }));
        const staged = await this.ctx.fs.main.stage(createReadStream(out));
        const comment = input.Comment?.trim() || `Trimmed to ${input.Start}–${input.End}`;
        await this.versions.addFile(actor, row.id, { staged, mime: 'video/mp4', width: info.width, height: info.height, ext: '.mp4', comment }, 'Original (before trim)');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  /** Re-reads width and height from each file (images through sharp, videos through ffprobe). */
  async recalculateDimensions(actor: Actor, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest('ID must list at least one resource');
    const vis = visibilityOf(actor.principal);
    const rows = await this.resources.named.requireAll(unique, vis);
    const sizes = new Map<number, { width: number; height: number }>();
    for (const row of rows) {
      const mime = bareMime(row.content_type);
      if (mime.startsWith('video/')) {
        if (!this.ctx.videoTool?.ffprobe) throw videoToolMissing();
        const info = await probeVideo(this.ctx.videoTool, this.path(row), 30_000).catch(() => null);
        if (!info || !info.width) throw badRequest(`resource ${row.id}: the video dimensions could not be read`);
        sizes.set(row.id, info);
      } else if (mime.startsWith('image/')) {
        const size = await readSize(this.path(row));
        if (!size) throw new HttpError(415, `resource ${row.id}: the stored file is not a decodable image`);
        sizes.set(row.id, size);
      } else {
        throw badRequest(`recalculating dimensions needs a raster image or a video; resource ${row.id} is ${mime}`);
      }
    }
    const items = rows.map((r) => ({ id: r.id, name: r.name, description: r.description, meta: r.meta }));
    const offered = snapshotItems(items);
    await withChange(this.ctx.lib.bus, actor, 'update', 'resource', async () => {
      await this.ctx.lib.transactor.run(async (trx) => {
        const resources = this.stores.resources.in(trx);
        // Fields a before-hook rewrote are the item's data for the update (§16.4).
        const rewritten = new Map(items.map((i) => [i.id, rewrittenFields(i, offered.get(i.id))]));
        for (const [id, s] of sizes) await resources.update(id, { ...rewritten.get(id), width: s.width, height: s.height }, vis);
      });
      return { message: `Recalculated dimensions of resources ${unique.join(', ')}`, result: undefined };
    }, { items });
  }
}
