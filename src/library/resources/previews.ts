// Thumbnails (companion §3.4, Decision 7): generated on demand, cached on disk per resource as
// <hash>-<width>x<height>.jpg, plus an optional full-size "source" frame (a custom thumbnail, a
// video frame or an imported sidecar) that every size is then made from. Clearing removes the
// resource's folder, so the next request regenerates.
import { stat, rm, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { HttpError } from '../../core/http/errors.js';
import { checkedPath } from '../../core/storage/resolver.js';
import { writeFileAtomic } from '../../core/storage/file-store.js';
import { KeyedLock, LockTimeoutError } from '../../core/storage/keyed-lock.js';
import { bareMime } from '../../core/storage/sniff.js';
import { normaliseCustomThumbnail, thumbnail } from '../../core/media/image.js';
import { videoFrame, type VideoTool, Limiter } from '../../core/media/ffmpeg.js';
import { pdfFirstPage, type PdfTool } from '../../core/media/pdf.js';
import type { LibraryConfig } from '../config.js';
import type { ResourceRow } from './records.js';
import type { Filesystems } from './storage.js';

export const PLACEHOLDER = '/public/placeholders/file.jpg';
const MAX_SIDE = 600;
/** Image types this build has no decoder for: they get the placeholder, not a 415. */
const NO_DECODER = new Set(['image/x-icon', 'image/vnd.microsoft.icon', 'image/heic', 'image/heif']);

/** `location` is relative to the main filesystem root (inside the private preview folder). */
export type PreviewResult = { kind: 'file'; path: string; location: string; etag: string } | { kind: 'placeholder' };

export const videoToolMissing = () => new HttpError(503, 'video thumbnails need ffmpeg, which is not installed or not configured (-ffmpeg-path)');

/** Target box of a request (companion §3.4 item 1); 0 means "follow the aspect ratio". */
export function previewBox(row: Pick<ResourceRow, 'width' | 'height'>, width = 0, height = 0): { width: number; height: number } {
  const w = Math.max(0, Math.min(width, MAX_SIDE));
  const h = Math.max(0, Math.min(height, MAX_SIDE));
  if (w === 0 && h === 0) {
    if (row.width > 0 && row.height > 0) {
      const scale = Math.min(1, MAX_SIDE / row.width, MAX_SIDE / row.height);
      return { width: Math.max(1, Math.round(row.width * scale)), height: Math.max(1, Math.round(row.height * scale)) };
    }
    return { width: MAX_SIDE, height: 0 };
  }
  return { width: w, height: h };
}

export class PreviewService {
  private readonly lock = new KeyedLock();
  private readonly ffmpegSlots: Limiter;

  constructor(
    private readonly fs: Filesystems,
    private readonly media: LibraryConfig['media'],
    readonly videoTool: VideoTool | null,
    readonly pdfTool: PdfTool | null = null,
  ) {
    this.ffmpegSlots = new Limiter(media.videoThumbConcurrency);
  }

  dir(resourceId: number): string {
    return join(this.fs.previewRoot, String(resourceId));
  }

  private sourcePath(resourceId: number): string {
    return join(this.dir(resourceId), 'source.jpg');
  }

  async clear(resourceId: number): Promise<void> {
    await rm(this.dir(resourceId), { recursive: true, force: true });
  }

  async hasSource(resourceId: number): Promise<boolean> {
    return (await stat(this.sourcePath(resourceId)).catch(() => null)) !== null;
  }

  /** Replaces every cached preview with a custom thumbnail. */
  async setCustom(resourceId: number, bytes: Buffer): Promise<void> {
    const jpeg = await normaliseCustomThumbnail(bytes);
    await this.lock.with(String(resourceId), async () => {
      await this.clear(resourceId);
      await writeFileAtomic(this.sourcePath(resourceId), jpeg);
    });
  }

  async get(row: ResourceRow, width?: number, height?: number): Promise<PreviewResult> {
    const box = previewBox(row, width, height);
    const file = join(this.dir(row.id), `${row.hash}-${box.width}x${box.height}.jpg`);
    const hit = await this.cached(row, file, box);
    if (hit) return hit;
    const mime = bareMime(row.content_type);
    const wait = mime.startsWith('video/') ? this.media.videoThumbLockTimeoutMs : 0;
    try {
      return await this.lock.with(String(row.id), async () => (await this.cached(row, file, box)) ?? this.generate(row, mime, file, box), wait);
    } catch (e) {
      if (e instanceof LockTimeoutError) throw new HttpError(503, 'the thumbnail is still being generated; try again shortly');
      throw e;
    }
  }

  /** The stored file of a resource, checked by the resolver (no symlink out of its root). */
  private async original(row: ResourceRow): Promise<string> {
    try {
      return await checkedPath(this.fs.get(row.storage_location).root, row.location, { allowPrivate: true });
    } catch {
      throw new HttpError(404, 'the stored file is missing');
    }
  }

  private async cached(row: ResourceRow, file: string, box: { width: number; height: number }): Promise<PreviewResult | null> {
    const info = await stat(file).catch(() => null);
    return info ? { kind: 'file', path: file, location: relative(this.fs.main.root, file), etag: `"${row.hash}-${box.width}-${box.height}-${Math.floor(info.mtimeMs)}"` } : null;
  }

  private async generate(row: ResourceRow, mime: string, file: string, box: { width: number; height: number }): Promise<PreviewResult> {
    let source: string | Buffer | null = (await this.hasSource(row.id)) ? this.sourcePath(row.id) : null;
    if (!source) {
      if (mime.startsWith('video/')) {
        source = await this.videoSource(row);
        if (!source) return { kind: 'placeholder' };
      } else if (mime === 'application/pdf' && this.pdfTool) {
        source = await this.pdfSource(row, this.pdfTool);
        if (!source) return { kind: 'placeholder' };
      } else if (mime.startsWith('image/') && !NO_DECODER.has(mime)) source = await this.original(row);
      else return { kind: 'placeholder' };
    }
    let out: Buffer;
    try {
      out = (await thumbnail(source, box.width, box.height)).data;
    } catch {
      throw new HttpError(415, 'the stored file is not a decodable image');
    }
    await writeFileAtomic(file, out);
    return (await this.cached(row, file, box))!;
  }

  /** The first page of a PDF as the source image; an unreadable PDF gets the placeholder. */
  private async pdfSource(row: ResourceRow, tool: PdfTool): Promise<string | null> {
    const original = await this.original(row);
    let page: Buffer;
    try {
      page = await this.ffmpegSlots.run(() => pdfFirstPage(tool, original, 1200, this.media.videoThumbTimeoutMs));
      page = await normaliseCustomThumbnail(page);
    } catch {
      return null;
    }
    await writeFileAtomic(this.sourcePath(row.id), page);
    return this.sourcePath(row.id);
  }

  /** The video's frame as the source image: a sidecar <location>.thumbnail.jpg, else ffmpeg. */
  private async videoSource(row: ResourceRow): Promise<string | null> {
    const original = await this.original(row);
    const sidecar = await readFile(`${original}.thumbnail.jpg`).catch(() => null);
    let frame: Buffer;
    if (sidecar) frame = sidecar;
    else {
      const tool = this.videoTool;
      if (!tool) throw videoToolMissing();
      try {
        frame = await this.ffmpegSlots.run(() => videoFrame(tool, original, this.media.videoThumbTimeoutMs));
      } catch {
        return null; // an unreadable video gets the placeholder
      }
    }
    await writeFileAtomic(this.sourcePath(row.id), frame);
    return this.sourcePath(row.id);
  }

  /** Pre-generates a video's source frame (background worker); false when it cannot. */
  async warmVideo(row: ResourceRow): Promise<boolean> {
    if (await this.hasSource(row.id)) return true;
    try {
      await this.lock.with(String(row.id), async () => {
        if (!(await this.hasSource(row.id))) await this.videoSource(row);
      });
      return this.hasSource(row.id);
    } catch {
      return false;
    }
  }
}
