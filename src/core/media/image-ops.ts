// Image work a plugin can ask for (clip-behaviour.md §8.6 `image`): information, resizing, text
// overlays, compositing, format conversion, dominant colours, greyscale samples, EXIF and a
// visual diff. Pure functions over files or buffers, so either plugin host can use them; they
// know nothing of clips. Every input is oriented by its EXIF orientation, checked against the
// 100-megapixel input limit before it is decoded, and processed under the caller's deadline;
// every produced image is PNG (or the requested format of `convert`) of at most 50 MiB once
// base64-encoded.
import type { Metadata, OverlayOptions, Sharp } from 'sharp';
import type sharpModule from 'sharp';
import { hasExif, readExif, type ExifSummary } from './exif.js';
import { configureSharp } from './sharp-settings.js';

// The image library is loaded by loadImageLibrary(), not imported: the clip service runs from a
// bundle that lifts a bundled module's static package imports to its start, and it should not
// load libvips until a plugin first asks for image work.
let loaded: typeof sharpModule | undefined;

/** Loads the image library once; every function below needs it. */
export async function loadImageLibrary(): Promise<void> {
  if (loaded) return;
  const lib = (await import('sharp')).default;
  configureSharp(lib);
  loaded = lib;
}

/** The loaded library's constructor, with all of its overloads. */
const sharp = ((...args: unknown[]): Sharp => {
  if (!loaded) throw new Error('the image library is not loaded (loadImageLibrary)');
  return (loaded as unknown as (...a: unknown[]) => Sharp)(...args);
}) as unknown as typeof sharpModule;

export const MAX_INPUT_PIXELS = 100_000_000;
export const MAX_OUTPUT_BASE64 = 50 * 1024 * 1024;
export const MAX_SIDE = 10_000;
export const MAX_LAYERS = 50;
export const MAX_GRAY_PIXELS = 1_000_000;
export const MAX_TEXT_CHARS = 10_000;
/** Pixels of the rendered text block (before it is cut to the image). */
const MAX_TEXT_AREA = 25_000_000;
/** diff compares at most this many pixels per side (the first image is scaled down to fit). */
const DIFF_SIDE = 2000;
const DIFF_THRESHOLD = 30;
const TEXT_PADDING = 10;
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/** A refusal or failure whose message is the plugin's answer. */
export class ImageOpError extends Error {}

export type ImageInput = string | Buffer;

export interface OpLimits {
  /** Wall-clock deadline (ms since the epoch) of the plugin call doing the work. */
  deadline?: number;
}

export interface Produced {
  /** base64 of the encoded image. */
  data: string;
  mime_type: 'image/png' | 'image/jpeg';
}

export interface Rgba {
  r: number;
  g: number;
  b: number;
  alpha: number;
}

/** What to hand sharp for a stored file (SVG as bytes; see image-input.ts). */
export { imageInput } from './image-input.js';

interface Probe {
  width: number;
  height: number;
  format: string;
  exif: Buffer | undefined;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Header facts, with the input limit checked before anything is decoded. */
async function probe(input: ImageInput): Promise<Probe> {
  let m: Metadata;
  try {
    m = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new ImageOpError(`failed to read image: ${message(e)}`);
  }
  const width = m.autoOrient?.width ?? m.width ?? 0;
  const height = m.autoOrient?.height ?? m.height ?? 0;
  if (width <= 0 || height <= 0) throw new ImageOpError('failed to read image: no dimensions');
  if (width * height > MAX_INPUT_PIXELS) throw new ImageOpError(`image too large (${width}x${height}, max 100 megapixels)`);
  return { width, height, format: m.format ?? '', exif: m.exif };
}

/** Seconds sharp may spend on one pipeline: what is left of the deadline, at least one. */
function timeoutSeconds(limits: OpLimits): number {
  if (limits.deadline === undefined || !Number.isFinite(limits.deadline)) return 0;
  const left = limits.deadline - Date.now();
  if (left <= 0) throw new ImageOpError('image processing timed out');
  return Math.min(3600, Math.max(1, Math.floor(left / 1000)));
}

/** An oriented decoder for a checked input. */
function open(input: ImageInput, limits: OpLimits): Sharp {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated', autoOrient: true }).timeout({ seconds: timeoutSeconds(limits) });
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ImageOpError) throw e;
    const text = message(e);
    if (/timeout/i.test(text)) throw new ImageOpError('image processing timed out');
    throw new ImageOpError(`failed to process image: ${text}`);
  }
}

function encoded(data: Buffer, mime: Produced['mime_type']): Produced {
  const base64Length = Math.ceil(data.length / 3) * 4;
  if (base64Length > MAX_OUTPUT_BASE64) throw new ImageOpError(`encoded image too large (${base64Length} bytes, max ${MAX_OUTPUT_BASE64})`);
  return { data: data.toString('base64'), mime_type: mime };
}

const png = async (img: Sharp) => encoded(await img.png().toBuffer(), 'image/png');

/** A side length: an integer within [min, MAX_SIDE]. */
function side(value: number, what: string, min: number): number {
  if (!Number.isInteger(value) || value < min || value > MAX_SIDE) {
    throw new ImageOpError(`${what} must be a whole number from ${min} to ${MAX_SIDE}`);
  }
  return value;
}

/** `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` optional). */
export function parseHexColor(text: string): Rgba {
  let hex = text.trim().replace(/^#/, '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  if (!/^(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(hex)) throw new ImageOpError(`invalid color: ${text.slice(0, 40)} (expected #RGB, #RRGGBB or #RRGGBBAA)`);
  const byte = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), alpha: hex.length === 8 ? byte(6) / 255 : 1 };
}

/**
 * Where an overlay of `w`×`h` placed at (left, top) meets a `cw`×`ch` canvas: the part of the
 * overlay to cut out and where it goes (sharp refuses overlays reaching past the canvas), or
 * null when nothing of it is visible.
 */
export function visiblePart(w: number, h: number, left: number, top: number, cw: number, ch: number) {
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(cw, left + w);
  const y1 = Math.min(ch, top + h);
  if (x1 <= x0 || y1 <= y0) return null;
  return { cut: { left: x0 - left, top: y0 - top, width: x1 - x0, height: y1 - y0 }, left: x0, top: y0 };
}

// ---- information

export interface ImageInfo {
  width: number;
  height: number;
  format: string;
  size: number;
  has_exif: boolean;
}

export async function imageInfo(input: ImageInput, size: number): Promise<ImageInfo> {
  const p = await probe(input);
  return { width: p.width, height: p.height, format: p.format, size, has_exif: hasExif(p.exif) };
}

export async function imageExif(input: ImageInput): Promise<ExifSummary> {
  return readExif((await probe(input)).exif);
}

// ---- producers

export type Fit = 'fill' | 'contain' | 'cover';

/**
 * Resizes to `width`×`height`; 0 for one side keeps the aspect ratio. `fill` stretches,
 * `contain` fits inside the box (the result may be smaller on one side), `cover` fills the box
 * and crops the centre.
 */
export async function resizeImage(input: ImageInput, width: number, height: number, fit: string, limits: OpLimits = {}): Promise<Produced> {
  if (fit !== 'fill' && fit !== 'contain' && fit !== 'cover') throw new ImageOpError(`unknown fit mode "${fit.slice(0, 40)}" (valid: fill, contain, cover)`);
  side(width, 'width', 0);
  side(height, 'height', 0);
  if (width === 0 && height === 0) throw new ImageOpError('width and height cannot both be 0');
  const p = await probe(input);
  const w = width || Math.max(1, Math.round((p.width * height) / p.height));
  const h = height || Math.max(1, Math.round((p.height * width) / p.width));
  const sharpFit = fit === 'contain' ? 'inside' : fit;
  return run(() => png(open(input, limits).resize(Math.min(w, MAX_SIDE), Math.min(h, MAX_SIDE), { fit: sharpFit })));
}

export type TextPosition = 'center' | 'top' | 'bottom' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
const POSITIONS: readonly string[] = ['center', 'top', 'bottom', 'top-left', 'top-right', 'bottom-left', 'bottom-right'];

export interface TextOverlay {
  text: string;
  /** A keyword; otherwise x and y place the text box's top-left corner. */
  position?: string;
  x?: number;
  y?: number;
  /** Pixel size of the font, default 24, at most 1000. */
  size?: number;
  /** Hex colour, default white. */
  color?: string;
  /** 0–1, multiplies the colour's own alpha; default 1. */
  opacity?: number;
}

const escapeMarkup = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function textOrigin(position: string, iw: number, ih: number, tw: number, th: number): { left: number; top: number } {
  const centreX = Math.floor((iw - tw) / 2);
  const right = iw - tw - TEXT_PADDING;
  const bottom = ih - th - TEXT_PADDING;
  switch (position as TextPosition) {
    case 'center':
      return { left: centreX, top: Math.floor((ih - th) / 2) };
    case 'top':
      return { left: centreX, top: TEXT_PADDING };
    case 'bottom':
      return { left: centreX, top: bottom };
    case 'top-left':
      return { left: TEXT_PADDING, top: TEXT_PADDING };
    case 'top-right':
      return { left: right, top: TEXT_PADDING };
    case 'bottom-left':
      return { left: TEXT_PADDING, top: bottom };
    default:
      return { left: right, top: bottom };
  }
}

/** Draws one text (a monospace face, wrapped at the image width) onto the image. */
export async function overlayText(input: ImageInput, o: TextOverlay, limits: OpLimits = {}): Promise<Produced> {
  if (o.text.length > MAX_TEXT_CHARS) throw new ImageOpError(`text too long (max ${MAX_TEXT_CHARS} characters)`);
  const size = o.size ?? 24;
  if (!Number.isFinite(size) || size <= 0) throw new ImageOpError('font size must be positive');
  if (size > 1000) throw new ImageOpError('font size too large (max 1000)');
  const color = parseHexColor(o.color ?? '#ffffff');
  const opacity = Math.min(1, Math.max(0, Number.isFinite(o.opacity) ? (o.opacity as number) : 1));
  if (o.position !== undefined && !POSITIONS.includes(o.position)) {
    throw new ImageOpError(`unknown position "${o.position.slice(0, 40)}" (valid: ${POSITIONS.join(', ')})`);
  }
  const p = await probe(input);
  // The text is rendered whole before it is cut to the image, so a text block far larger than
  // the image is refused instead of drawn (monospace: about 0.6 em wide, 1.2 em a line).
  const columns = Math.max(1, Math.floor(p.width / (0.6 * size)));
  const lines = o.text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil([...line].length / columns)), 0);
  const textArea = p.width * lines * size * 1.2;
  if (textArea > Math.min(MAX_TEXT_AREA, Math.max(4 * p.width * p.height, 4_000_000))) {
    throw new ImageOpError(`text too large for the image (about ${lines} lines of ${size} px on a ${p.width}x${p.height} image)`);
  }
  return run(async () => {
    const base = open(input, limits).ensureAlpha();
    const alpha = color.alpha * opacity;
    if (o.text.trim() === '' || alpha <= 0) return png(base);
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    const markup = `<span foreground="#${hex(color.r)}${hex(color.g)}${hex(color.b)}" fgalpha="${Math.max(1, Math.round(alpha * 65535))}">${escapeMarkup(o.text)}</span>`;
    const { data: text, info } = await sharp({ text: { text: markup, font: `monospace ${size}`, dpi: 72, rgba: true, width: p.width, wrap: 'char' }, limitInputPixels: MAX_INPUT_PIXELS })
      .timeout({ seconds: timeoutSeconds(limits) })
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    const at = o.position !== undefined ? textOrigin(o.position, p.width, p.height, info.width, info.height) : { left: Math.trunc(o.x ?? 0), top: Math.trunc(o.y ?? 0) };
    const part = visiblePart(info.width, info.height, at.left, at.top, p.width, p.height);
    if (!part) return png(base);
    const piece = await sharp(text).extract(part.cut).png({ compressionLevel: 1 }).toBuffer();
    return png(sharp(await base.png({ compressionLevel: 1 }).toBuffer()).composite([{ input: piece, left: part.left, top: part.top }]));
  });
}

export interface Layer {
  input: ImageInput;
  x: number;
  y: number;
  /** Drawn size; the layer's own size when absent. */
  width?: number;
  height?: number;
}

export interface Canvas {
  width: number;
  height: number;
  /** Hex colour, default white. */
  background?: string;
}

/** Draws the layers in order onto a new canvas, each resized when a size is given. */
export async function compositeImages(canvas: Canvas, layers: readonly Layer[], limits: OpLimits = {}): Promise<Produced> {
  side(canvas.width, 'canvas width', 1);
  side(canvas.height, 'canvas height', 1);
  if (layers.length > MAX_LAYERS) throw new ImageOpError(`too many layers (${layers.length}, max ${MAX_LAYERS})`);
  const background = canvas.background === undefined ? WHITE : parseHexColor(canvas.background);
  const pieces: OverlayOptions[] = [];
  for (const [i, layer] of layers.entries()) {
    const p = await probe(layer.input).catch((e: Error) => {
      throw new ImageOpError(`layer ${i + 1}: ${e.message}`);
    });
    const w = side(layer.width ?? p.width, `layer ${i + 1} width`, 1);
    const h = side(layer.height ?? p.height, `layer ${i + 1} height`, 1);
    const part = visiblePart(w, h, Math.trunc(layer.x), Math.trunc(layer.y), canvas.width, canvas.height);
    if (!part) continue;
    const piece = await run(() => {
      let img = open(layer.input, limits);
      if (w !== p.width || h !== p.height) img = img.resize(w, h, { fit: 'fill' });
      return img.extract(part.cut).png({ compressionLevel: 1 }).toBuffer();
    });
    pieces.push({ input: piece, left: part.left, top: part.top });
  }
  return run(() =>
    png(sharp({ create: { width: canvas.width, height: canvas.height, channels: 4, background } }).timeout({ seconds: timeoutSeconds(limits) }).composite(pieces)),
  );
}

/** Re-encodes as PNG or JPEG (`jpg` is JPEG; quality 1–100, default 85; JPEG flattens onto white). */
export async function convertImage(input: ImageInput, format: string, quality: number | undefined, limits: OpLimits = {}): Promise<Produced> {
  if (format !== 'png' && format !== 'jpeg' && format !== 'jpg') throw new ImageOpError(`unsupported format "${format.slice(0, 40)}" (valid: png, jpeg, jpg)`);
  const q = Math.min(100, Math.max(1, Math.round(Number.isFinite(quality) ? (quality as number) : 85)));
  await probe(input);
  return run(async () => {
    if (format === 'png') return png(open(input, limits));
    return encoded(await open(input, limits).flatten({ background: WHITE }).jpeg({ quality: q }).toBuffer(), 'image/jpeg');
  });
}

// ---- analysis

/** Oriented pixels at a given size, flattened onto white, 8-bit RGB. */
async function rgb(input: ImageInput, width: number, height: number, fit: 'fill' | 'inside', limits: OpLimits): Promise<{ data: Buffer; width: number; height: number }> {
  return run(async () => {
    const { data, info } = await open(input, limits)
      .resize(width, height, { fit, kernel: 'linear' })
      .flatten({ background: WHITE })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  });
}

/** A small deterministic generator, so the same image always gives the same colours. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Up to `count` (1–20, default 5) colours as `#rrggbb`, most common first: k-means over the
 * image scaled to fit 100×100, fully transparent areas ignored.
 */
export async function dominantColors(input: ImageInput, count = 5, limits: OpLimits = {}): Promise<string[]> {
  const k0 = Math.min(20, Math.max(1, Math.trunc(Number.isFinite(count) ? count : 5)));
  const p = await probe(input);
  const { data, info } = await run(async () =>
    open(input, limits)
      .resize(Math.min(100, p.width), Math.min(100, p.height), { fit: 'inside', kernel: 'linear' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  const pixels: number[][] = [];
  for (let i = 0; i < info.width * info.height * 4; i += 4) if (data[i + 3] >= 128) pixels.push([data[i], data[i + 1], data[i + 2]]);
  if (pixels.length === 0) return [];
  const k = Math.min(k0, pixels.length);
  const random = seeded(42);
  const centroids = Array.from({ length: k }, () => [...pixels[Math.floor(random() * pixels.length)]]);
  const assignment = new Array<number>(pixels.length).fill(0);
  for (let iteration = 0; iteration < 10; iteration++) {
    for (const [i, px] of pixels.entries()) {
      let best = 0;
      let bestDistance = Infinity;
      for (const [j, c] of centroids.entries()) {
        const d = (px[0] - c[0]) ** 2 + (px[1] - c[1]) ** 2 + (px[2] - c[2]) ** 2;
        if (d < bestDistance) {
          bestDistance = d;
          best = j;
        }
      }
      assignment[i] = best;
    }
    const sums = centroids.map(() => [0, 0, 0, 0]);
    for (const [i, px] of pixels.entries()) {
      const s = sums[assignment[i]];
      s[0] += px[0];
      s[1] += px[1];
      s[2] += px[2];
      s[3]++;
    }
    for (const [j, s] of sums.entries()) if (s[3] > 0) centroids[j] = [s[0] / s[3], s[1] / s[3], s[2] / s[3]];
  }
  const sizes = centroids.map(() => 0);
  for (const a of assignment) sizes[a]++;
  const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');
  return centroids
    .map((c, j) => ({ c, n: sizes[j] }))
    .filter((e) => e.n > 0)
    .sort((a, b) => b.n - a.n)
    .map(({ c }) => `#${hex(c[0])}${hex(c[1])}${hex(c[2])}`);
}

/** Luminance (ITU-R BT.601, 0–255, rows top to bottom) of the image stretched to `width`×`height`. */
export async function grayscalePixels(input: ImageInput, width: number, height: number, limits: OpLimits = {}): Promise<number[]> {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) throw new ImageOpError('width and height must be positive whole numbers');
  if (width * height > MAX_GRAY_PIXELS) throw new ImageOpError(`total pixels too large (max ${MAX_GRAY_PIXELS})`);
  await probe(input);
  const { data } = await rgb(input, width, height, 'fill', limits);
  const out = new Array<number>(width * height);
  for (let i = 0, j = 0; j < out.length; i += 3, j++) out[j] = Math.round(0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]);
  return out;
}

export interface ImageDiff {
  /** 1 for identical pixels, towards 0 the more they differ. */
  similarity: number;
  diff_data: string;
  diff_mime_type: 'image/png';
}

/**
 * Compares two images at the first one's size (scaled to fit 2000×2000; the second is stretched
 * to it). The diff image marks differing pixels red, brighter the more they differ, over a
 * darkened copy of the first image.
 */
export async function diffImages(a: ImageInput, b: ImageInput, limits: OpLimits = {}): Promise<ImageDiff> {
  const pa = await probe(a).catch((e: Error) => {
    throw new ImageOpError(`image A: ${e.message}`);
  });
  await probe(b).catch((e: Error) => {
    throw new ImageOpError(`image B: ${e.message}`);
  });
  const scale = Math.min(1, DIFF_SIDE / pa.width, DIFF_SIDE / pa.height);
  const w = Math.max(1, Math.round(pa.width * scale));
  const h = Math.max(1, Math.round(pa.height * scale));
  const A = await rgb(a, w, h, 'fill', limits);
  const B = await rgb(b, w, h, 'fill', limits);
  const out = Buffer.alloc(w * h * 3);
  let total = 0;
  for (let i = 0; i < out.length; i += 3) {
    const d = (Math.abs(A.data[i] - B.data[i]) + Math.abs(A.data[i + 1] - B.data[i + 1]) + Math.abs(A.data[i + 2] - B.data[i + 2])) / 3;
    total += d / 255;
    if (d > DIFF_THRESHOLD) out[i] = Math.min(255, Math.round(d * 3));
    else {
      out[i] = A.data[i] >> 1;
      out[i + 1] = A.data[i + 1] >> 1;
      out[i + 2] = A.data[i + 2] >> 1;
    }
  }
  const image = await run(() => png(sharp(out, { raw: { width: w, height: h, channels: 3 } })));
  return { similarity: Math.max(0, 1 - total / (w * h)), diff_data: image.data, diff_mime_type: 'image/png' };
}
