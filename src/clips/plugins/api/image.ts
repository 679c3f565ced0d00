// The `image` Lua module (companion §8.6). The image work itself is shared (src/core/media/
// image-ops.ts); this file reads the Lua arguments, turns clip ids into the files of live image
// clips, and gives every failure the `nil, reason` shape. Producers return `{data, mime_type}`
// and never store anything: a plugin keeps a result with `clips.create`, which goes through the
// upload path (detection, hashes, events) like any other new clip.
import { currentLuaCall } from '../../../core/lua/index.js';
import type { ImageInput, Layer, OpLimits } from '../../../core/media/image-ops.js';
import type { ClipApi } from './clips.js';
import { guard, idArg, optionsTable, PluginApiError, textArg } from './common.js';

interface ImageClip {
  file: ImageInput;
  size: number;
}

/** A number argument; `fallback` when nil (required when there is none). */
function numberArg(value: unknown, what: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new PluginApiError(`${what} is required`);
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new PluginApiError(`${what} must be a number`);
  return value;
}

const optionalNumber = (value: unknown, what: string) => (value === undefined || value === null ? undefined : numberArg(value, what));
const optionalText = (value: unknown, what: string) => (value === undefined || value === null ? undefined : textArg(value, what));

/** The deadline of the plugin call this work runs for, so sharp stops when the call would. */
function limits(): OpLimits {
  return { deadline: currentLuaCall()?.deadline };
}

type ImageOps = typeof import('../../../core/media/image-ops.js');
let loading: Promise<ImageOps> | undefined;
/** Loaded on first use: the image library's native code is not part of every start. */
const imageOps = () =>
  (loading ??= import('../../../core/media/image-ops.js').then(async (ops) => {
    await ops.loadImageLibrary();
    return ops;
  }));

/** Host functions answer `nil, reason`; image errors carry their reason already. */
function imageGuard<A extends unknown[]>(fn: (ops: ImageOps, ...args: A) => Promise<unknown>) {
  return guard(async (...args: A) => {
    const ops = await imageOps();
    try {
      return await fn(ops, ...args);
    } catch (e) {
      if (e instanceof ops.ImageOpError) throw new PluginApiError(e.message);
      throw e;
    }
  });
}

export function imageModule(clips: ClipApi) {
  /** A live clip whose type is an image. */
  const imageClip = async (raw: unknown): Promise<ImageClip> => {
    const { imageInput } = await imageOps();
    const id = idArg(raw, 'clip id');
    const clip = await clips.pathOf(id);
    if (!clip) throw new PluginApiError('clip not found');
    if (!clip.contentType.startsWith('image/')) throw new PluginApiError(`clip ${id} is not an image (type: ${clip.contentType})`);
    return { file: await imageInput(clip.file), size: clip.size };
  };

  return {
    info: imageGuard(async (ops, id: unknown) => {
      const clip = await imageClip(id);
      return ops.imageInfo(clip.file, clip.size);
    }),
    resize: imageGuard(async (ops, id: unknown, width: unknown, height: unknown, opts: unknown) => {
      const w = numberArg(width, 'width');
      const h = numberArg(height, 'height');
      const fit = optionalText(optionsTable(opts).fit, 'fit') ?? 'fill';
      const clip = await imageClip(id);
      return ops.resizeImage(clip.file, w, h, fit, limits());
    }),
    overlay_text: imageGuard(async (ops, id: unknown, opts: unknown) => {
      const o = optionsTable(opts);
      if (o.text === undefined || o.text === null) throw new PluginApiError('text is required');
      const overlay = {
        text: textArg(o.text, 'text'),
        position: optionalText(o.position, 'position'),
        x: optionalNumber(o.x, 'x'),
        y: optionalNumber(o.y, 'y'),
        size: optionalNumber(o.size, 'size'),
        color: optionalText(o.color, 'color'),
        opacity: optionalNumber(o.opacity, 'opacity'),
      };
      const clip = await imageClip(id);
      return ops.overlayText(clip.file, overlay, limits());
    }),
    composite: imageGuard(async (ops, opts: unknown) => {
      const o = optionsTable(opts);
      if (o.width === undefined || o.width === null || o.height === undefined || o.height === null) throw new PluginApiError('width and height are required');
      const canvas = { width: numberArg(o.width, 'width'), height: numberArg(o.height, 'height'), background: optionalText(o.background, 'background') };
      if (o.layers === undefined || o.layers === null) throw new PluginApiError('layers are required');
      // An empty Lua table arrives as an object with no keys: no layers, a plain canvas.
      const list = Array.isArray(o.layers) ? o.layers : Object.keys(optionsTable(o.layers)).length === 0 && typeof o.layers === 'object' ? [] : null;
      if (!list) throw new PluginApiError('layers must be an array');
      if (list.length > 50) throw new PluginApiError(`too many layers (${list.length}, max 50)`);
      const layers: Layer[] = [];
      for (const [i, raw] of list.entries()) {
        const l = optionsTable(raw);
        if (l.clip_id === undefined || l.clip_id === null) throw new PluginApiError(`layer ${i + 1}: clip_id is required`);
        const clip = await imageClip(l.clip_id).catch((e: Error) => {
          throw new PluginApiError(`layer ${i + 1}: ${e.message}`);
        });
        layers.push({ input: clip.file, x: numberArg(l.x, 'x', 0), y: numberArg(l.y, 'y', 0), width: optionalNumber(l.width, 'width'), height: optionalNumber(l.height, 'height') });
      }
      return ops.compositeImages(canvas, layers, limits());
    }),
    convert: imageGuard(async (ops, id: unknown, format: unknown, quality: unknown) => {
      const f = textArg(format ?? '', 'format').toLowerCase();
      // The quality may come as a number or, as the reference took it, as `{quality = n}`.
      const q = typeof quality === 'object' && quality !== null ? optionalNumber(optionsTable(quality).quality, 'quality') : optionalNumber(quality, 'quality');
      const clip = await imageClip(id);
      return ops.convertImage(clip.file, f, q, limits());
    }),
    dominant_colors: imageGuard(async (ops, id: unknown, count: unknown) => {
      const n = numberArg(count, 'count', 5);
      const clip = await imageClip(id);
      return ops.dominantColors(clip.file, n, limits());
    }),
    grayscale_pixels: imageGuard(async (ops, id: unknown, width: unknown, height: unknown) => {
      const w = numberArg(width, 'width');
      const h = numberArg(height, 'height');
      const clip = await imageClip(id);
      return ops.grayscalePixels(clip.file, w, h, limits());
    }),
    metadata: imageGuard(async (ops, id: unknown) => ops.imageExif((await imageClip(id)).file)),
    diff: imageGuard(async (ops, a: unknown, b: unknown) => {
      const first = await imageClip(a).catch((e: Error) => {
        throw new PluginApiError(`image A: ${e.message}`);
      });
      const second = await imageClip(b).catch((e: Error) => {
        throw new PluginApiError(`image B: ${e.message}`);
      });
      return ops.diffImages(first.file, second.file, limits());
    }),
  };
}
