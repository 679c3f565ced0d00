// Padding an image to an aspect ratio (library-plugins.md §14; the clip image module can use it
// too): white bars on the short side, the source centred, JPEG kept as JPEG (quality 90) and
// everything else written as PNG.
import sharp, { type Metadata } from 'sharp';
import { MAX_INPUT_PIXELS as MAX_PIXELS } from './image-ops.js';

export class PadError extends Error {}

const SAME_RATIO = 0.001;

/** "W:H" with positive numbers → W/H; PadError with the §14 wording otherwise. */
export function parseRatio(text: string): number {
  const colon = text.indexOf(':');
  if (colon < 0) throw new PadError(`invalid ratio format: ${text} (expected W:H, e.g. 16:9)`);
  const w = Number(text.slice(0, colon).trim());
  const h = Number(text.slice(colon + 1).trim());
  if (!Number.isFinite(w) || !Number.isFinite(h) || w <= 0 || h <= 0 || text.slice(0, colon).trim() === '' || text.slice(colon + 1).trim() === '') {
    throw new PadError(`invalid ratio values: ${text} (both must be positive numbers)`);
  }
  return w / h;
}

export interface Padded {
  data: Buffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/** Pads `input` to `ratio` (width / height). */
export async function padToAspectRatio(input: Buffer, ratio: number): Promise<Padded> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch (e) {
    throw new PadError(`image decode failed: ${(e as Error).message}`);
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) throw new PadError('source image has invalid dimensions');
  const jpeg = meta.format === 'jpeg';
  let outW = width;
  let outH = height;
  if (Math.abs(width / height - ratio) > SAME_RATIO) {
    if (width / height > ratio) outH = Math.round(width / ratio);
    else outW = Math.round(height * ratio);
  }
  const left = Math.floor((outW - width) / 2);
  const top = Math.floor((outH - height) / 2);
  try {
    let img = sharp(input, { limitInputPixels: MAX_PIXELS }).extend({
      top,
      bottom: outH - height - top,
      left,
      right: outW - width - left,
      background: { r: 255, g: 255, b: 255, alpha: 1 },
    });
    img = jpeg ? img.jpeg({ quality: 90 }) : img.png();
    return { data: await img.toBuffer(), mime: jpeg ? 'image/jpeg' : 'image/png', width: outW, height: outH };
  } catch (e) {
    throw new PadError(`image decode failed: ${(e as Error).message}`);
  }
}
