// Clipboard copies (companion §11): the checks in their order — body, scope, existence, a
// backend, a copyable type — then the clip's text, its image as PNG, or file references to
// leased temporary copies.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { badRequest, HttpError, notFound } from '../../core/http/errors.js';
import { imageInput } from '../../core/media/image-input.js';
import { isTextType } from '../clips/content-type.js';
import type { ClipRow } from '../clips/repository.js';
import type { ClipService } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import type { Json } from '../http/input.js';
import type { KeyPrincipal } from '../http/principal.js';
import { ClipboardFailed, detectBackend, runBackend, type Backend, type ClipboardKind } from './backends.js';
import type { ClipTempFiles } from './temp-files.js';

const unavailable = () => new HttpError(501, 'clipboard not available on this server');

/** Images are decoded only up to this many pixels (sharp's own default bound). */
const MAX_PIXELS = 268_402_689;

export function clipIdOf(body: Json): number {
  const id = body.clip_id;
  if (id === undefined || id === null) throw badRequest('clip_id is required');
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw badRequest('clip_id must be a positive integer');
  return id;
}

export class ClipboardService {
  constructor(
    private readonly ctx: ClipContext,
    private readonly clips: ClipService,
    private readonly tempFiles: ClipTempFiles,
    /** The environment the backend is chosen from and runs in (DISPLAY, WAYLAND_DISPLAY, PATH). */
    private readonly env: () => NodeJS.ProcessEnv,
  ) {}

  private backendFor(kind: ClipboardKind): { backend: Backend; env: NodeJS.ProcessEnv } {
    const env = this.env();
    const backend = detectBackend(env);
    if (!backend || !backend.supports(kind)) throw unavailable();
    return { backend, env };
  }

  private async run(kind: ClipboardKind, data: Buffer | Readable, choice: { backend: Backend; env: NodeJS.ProcessEnv }): Promise<void> {
    try {
      await runBackend(choice.backend, kind, data, choice.env);
    } catch (e) {
      if (e instanceof ClipboardFailed) throw new HttpError(500, `failed to copy to clipboard: ${e.message}`);
      throw e;
    }
  }

  /** POST /clipboard/copy: text as UTF-8 text, images as PNG (SVG counts as text). */
  async copy(caller: KeyPrincipal, body: Json): Promise<void> {
    const clip = await this.clips.accessible(caller, clipIdOf(body));
    const type = clip.content_type;
    const isImage = type.startsWith('image/') && type !== 'image/svg+xml';
    const isText = isTextType(type) || type === 'image/svg+xml';
    if (!detectBackend(this.env())) throw unavailable();
    if (!isText && !isImage) throw badRequest(`unsupported content type for clipboard copy: ${type}`);
    const kind: ClipboardKind = isText ? 'text' : 'image';
    const choice = this.backendFor(kind);
    const path = this.ctx.blobs.pathOf(clip.content_hash);
    if (kind === 'text' || type === 'image/png') return this.run(kind, createReadStream(path), choice);
    let png: Buffer;
    try {
      // Loaded on first use: the image library's native code is not part of every start.
      const { default: sharp } = await import('sharp');
      png = await sharp(await imageInput(path), { limitInputPixels: MAX_PIXELS }).png().toBuffer();
    } catch (e) {
      throw badRequest(`cannot convert ${type} to PNG for the clipboard: ${(e as Error).message}`);
    }
    return this.run('image', png, choice);
  }

  /** Plain text onto the clipboard (the plugin function utils.clipboard_write). */
  async copyText(text: string): Promise<void> {
    const choice = this.backendFor('text');
    await this.run('text', Buffer.from(text, 'utf8'), choice);
  }

  /** POST /clipboard/copy-file: one file reference. */
  async copyFile(caller: KeyPrincipal, body: Json): Promise<void> {
    const clip = await this.clips.accessible(caller, clipIdOf(body));
    await this.copyAsFiles([clip]);
  }

  /** File references (text/uri-list, one file:// URI per clip, CRLF-separated) to leased copies. */
  async copyAsFiles(clips: readonly ClipRow[]): Promise<void> {
    if (clips.length === 0) throw notFound('clip not found');
    const choice = this.backendFor('files');
    const uris: string[] = [];
    for (const clip of clips) uris.push(pathToFileURL(await this.tempFiles.materialise(clip)).href);
    await this.run('files', Buffer.from(`${uris.join('\r\n')}\r\n`), choice);
  }
}
