// Perceptual hashes of one image (companion §3.9), all from a single decode to 64×64 RGB:
// pHash (DCT, primary), dHash and aHash (legacy), and a flatness test that keeps solid-colour
// images out of matching. Hashes are 64-bit values carried as bigint.
import { rgbPixels } from './image.js';

export interface ImageHashes {
  pHash: bigint;
  dHash: bigint;
  aHash: bigint;
  flat: boolean;
}

const N = 64;

function luma(rgb: Buffer): Float64Array {
  const out = new Float64Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  return out;
}

/** Box-averages a size×size grey image down to w×h. */
function shrink(grey: Float64Array, size: number, w: number, h: number): Float64Array {
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * size) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * size) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * size) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * size) / w));
      let sum = 0;
      for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) sum += grey[yy * size + xx];
      out[y * w + x] = sum / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}

/** The 8×8 lowest frequencies of the (unnormalised) 2-D DCT-II of a 64×64 image, row-major. */
function lowDct(grey: Float64Array): Float64Array {
  const K = 8;
  const cos = new Float64Array(K * N);
  for (let k = 0; k < K; k++) for (let n = 0; n < N; n++) cos[k * N + n] = Math.cos((Math.PI / N) * (n + 0.5) * k);
  const rows = new Float64Array(N * K); // per row, the first 8 coefficients
  for (let y = 0; y < N; y++) {
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let x = 0; x < N; x++) s += grey[y * N + x] * cos[k * N + x];
      rows[y * K + k] = s;
    }
  }
  const out = new Float64Array(K * K);
  for (let ky = 0; ky < K; ky++) {
    for (let kx = 0; kx < K; kx++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * K + kx] * cos[ky * N + y];
      out[ky * K + kx] = s;
    }
  }
  return out;
}

function median(values: Float64Array): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
}

/** Bits from the first value (most significant) to the last. */
function bits(flags: boolean[]): bigint {
  let v = 0n;
  for (const f of flags) v = (v << 1n) | (f ? 1n : 0n);
  return v;
}

export function hashesFromGrey(grey: Float64Array): ImageHashes {
  const dct = lowDct(grey);
  const m = median(dct);
  const pHash = bits([...dct].map((c) => c > m));

  const small = shrink(grey, N, 8, 8);
  const avg = small.reduce((a, b) => a + b, 0) / small.length;
  const aHash = bits([...small].map((p) => p > avg));

  const nine = shrink(grey, N, 9, 8);
  const dFlags: boolean[] = [];
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) dFlags.push(nine[y * 9 + x] < nine[y * 9 + x + 1]);
  const dHash = bits(dFlags);

  const flatSample = shrink(grey, N, 32, 32);
  const mean = flatSample.reduce((a, b) => a + b, 0) / flatSample.length;
  const variance = flatSample.reduce((a, b) => a + (b - mean) ** 2, 0) / flatSample.length;
  return { pHash, dHash, aHash, flat: variance < 1.5 };
}

/** Decodes the file once (EXIF orientation applied, flattened onto white) and hashes it. */
export async function imageHashes(path: string): Promise<ImageHashes> {
  return hashesFromGrey(luma(await rgbPixels(path, N, N)));
}

export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** 16 lowercase hex digits. */
export const toHex = (v: bigint) => BigInt.asUintN(64, v).toString(16).padStart(16, '0');
/** The same 64 bits read as a signed 64-bit integer (how the int columns store them). */
export const toSigned = (v: bigint) => BigInt.asIntN(64, v);
/** The four 16-bit chunks: bits 0–15, 16–31, 32–47, 48–63. */
export const chunksOf = (v: bigint): [number, number, number, number] => {
  const u = BigInt.asUintN(64, v);
  return [0, 1, 2, 3].map((i) => Number((u >> BigInt(16 * i)) & 0xffffn)) as [number, number, number, number];
};
export const fromChunks = (c: readonly number[]): bigint => c.reduce((acc, part, i) => acc | (BigInt(part) << BigInt(16 * i)), 0n);

/** Every 16-bit value within Hamming distance 2 of `v` (1 + 16 + 120 = 137 values). */
export function chunkNeighbours(v: number): number[] {
  const out = [v];
  for (let i = 0; i < 16; i++) out.push(v ^ (1 << i));
  for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) out.push(v ^ (1 << i) ^ (1 << j));
  return out;
}
