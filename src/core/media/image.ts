// Raster image work through sharp (libvips): reading dimensions, proving an image decodes,
// thumbnails, rotation, cropping and the re-encoding rules of companion §3.5.
import sharp, { type Sharp } from 'sharp';
import { imageInput } from './image-input.js';
import { configureSharp } from './sharp-settings.js';

configureSharp(sharp);

export class InvalidImageError extends Error {}

/** Raster formats rotate and crop accept (companion §3.5). */
export const EDITABLE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff', 'image/heic', 'image/heif', 'image/avif'];

/** Types that are images but that this build cannot decode into pixels. */
const UNDECODABLE = new Set(['image/x-icon', 'image/vnd.microsoft.icon', 'image/heic', 'image/heif', 'image/avif']);

export interface Size {
  width: number;
  height: number;
}

/** Pixel size from the header, or null when sharp cannot read it. */
export async function readSize(input: string | Buffer): Promise<Size | null> {
  return headerSize(await imageInput(input));
}

/** readSize of an input already passed through imageInput. */
async function headerSize(input: string | Buffer): Promise<Size | null> {
  try {
    const m = await sharp(input, { failOn: 'none' }).metadata();
    return m.width && m.height ? { width: m.width, height: m.height } : null;
  } catch {
    return null;
  }
}

/**
 * Dimensions of an uploaded `image/*` file (companion §3.2): decodable rasters give their size
 * and must decode completely; formats without a decoder here are accepted as 0×0; SVG gives its
 * intrinsic size. A claimed image that does not decode throws InvalidImageError.
 */
export async function uploadedImageSize(path: string, mime: string): Promise<Size> {
  // Sniffed once: the size read and the decode below both take the same input.
  const input = await imageInput(path);
  if (UNDECODABLE.has(mime) || mime === 'image/svg+xml') return (await headerSize(input)) ?? { width: 0, height: 0 };
  const size = await headerSize(input);
  if (!size || size.width === 0 || size.height === 0) throw new InvalidImageError('uploaded file is not a valid image: it cannot be decoded');
  try {
    // A small decode proves the whole file reads (shrink-on-load keeps it cheap for JPEG/WebP).
    await sharp(input, { failOn: 'truncated' }).resize(16, 16, { fit: 'fill' }).raw().toBuffer();
  } catch (e) {
    throw new InvalidImageError(`uploaded file is not a valid image: ${(e as Error).message}`);
  }
  return size;
}

/** True when sharp can turn this file into pixels. */
export async function decodes(input: string | Buffer): Promise<boolean> {
  try {
    await sharp(await imageInput(input), { failOn: 'truncated' }).resize(8, 8, { fit: 'fill' }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/** JPEG quality by the larger side of the target (companion §3.4 item 6). */
export function thumbnailQuality(width: number, height: number): number {
  const side = Math.max(width, height);
  if (side <= 100) return 70;
  if (side <= 200) return 75;
  if (side <= 400) return 80;
  return 85;
}

/**
 * A JPEG thumbnail. With both sides the image is stretched to exactly that box; with one side
 * the other follows the aspect ratio. SVG is rasterised onto white. Transparency is flattened.
 */
export async function thumbnail(input: string | Buffer, width: number, height: number): Promise<{ data: Buffer; width: number; height: number }> {
  const img = sharp(await imageInput(input), { failOn: 'truncated', density: 96, limitInputPixels: 268_402_689 });
  const resized = img.resize(width || null, height || null, { fit: width && height ? 'fill' : 'inside', kernel: 'lanczos3' });
  const { data, info } = await resized
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: thumbnailQuality(width, height), mozjpeg: false })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A custom thumbnail: longest side at most 1920 px, JPEG quality 85. */
export async function normaliseCustomThumbnail(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { failOn: 'truncated' })
      .rotate()
      .resize(1920, 1920, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (e) {
    throw new InvalidImageError(`thumbnail is not a decodable image: ${(e as Error).message}`);
  }
}

/** Output of rotate/crop: the bytes, their type and whether the format changed. */
export interface Reencoded {
  data: Buffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  /** e.g. " (re-encoded as PNG)", or "" when the format was kept. */
  note: string;
}

function encode(img: Sharp, sourceMime: string): Sharp {
  return sourceMime === 'image/jpeg' ? img.jpeg({ quality: 95 }) : img.png();
}

async function finish(img: Sharp, sourceMime: string): Promise<Reencoded> {
  const { data, info } = await encode(img, sourceMime).toBuffer({ resolveWithObject: true });
  const mime = sourceMime === 'image/jpeg' ? 'image/jpeg' : 'image/png';
  const note = sourceMime === 'image/jpeg' || sourceMime === 'image/png' ? '' : ' (re-encoded as PNG)';
  return { data, mime, width: info.width, height: info.height, note };
}

/** Rotates clockwise by any number of degrees; the canvas grows to fit. */
export async function rotateImage(path: string, degrees: number, mime: string): Promise<Reencoded> {
  const normalized = ((degrees % 360) + 360) % 360;
  const background = mime === 'image/jpeg' ? { r: 0, g: 0, b: 0, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
  return finish(sharp(await imageInput(path), { failOn: 'truncated' }).rotate(normalized, { background }), mime);
}

export async function cropImage(path: string, rect: { x: number; y: number; width: number; height: number }, mime: string): Promise<Reencoded> {
  return finish(sharp(await imageInput(path), { failOn: 'truncated' }).extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height }), mime);
}

/** Oriented, flattened pixels at a fixed size, RGB (used by perceptual hashing). */
export async function rgbPixels(path: string, width: number, height: number): Promise<Buffer> {
  return sharp(await imageInput(path), { failOn: 'truncated' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
}
