import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkNeighbours, chunksOf, fromChunks, hammingDistance, imageHashes, toHex } from './phash.js';

const dir = mkdtempSync(join(tmpdir(), 'phash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function file(name: string, img: Buffer): Promise<string> {
  const p = join(dir, name);
  writeFileSync(p, img);
  return p;
}

async function pattern(seed: number, w = 128, h = 96): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const x = i % w;
    const y = Math.floor(i / w);
    raw[i * 3] = ((x * seed * 7) ^ (y * 3)) & 0xff;
    raw[i * 3 + 1] = (y * 255) / h;
    raw[i * 3 + 2] = (x * 255) / w;
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

describe('perceptual hashes', () => {
  it('near duplicates are close, different pictures are far, flat images are flagged', async () => {
    const a = await pattern(1);
    const ha = await imageHashes(await file('a.png', a));
    const resized = await imageHashes(await file('b.jpg', await sharp(a).resize(90, 70).jpeg({ quality: 70 }).toBuffer()));
    const other = await imageHashes(await file('c.png', await sharp(await pattern(5)).flip().toBuffer()));
    const flat = await imageHashes(await file('d.png', await sharp({ create: { width: 40, height: 40, channels: 3, background: '#336699' } }).png().toBuffer()));
    expect(hammingDistance(ha.pHash, resized.pHash)).toBeLessThanOrEqual(10);
    expect(hammingDistance(ha.pHash, other.pHash)).toBeGreaterThan(11);
    expect(ha.flat).toBe(false);
    expect(flat.flat).toBe(true);
    expect(flat.dHash).toBe(0n);
    expect(toHex(ha.pHash)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('chunks round-trip and neighbour sets have 137 values within distance 2', () => {
    const v = 0xfedcba9876543210n;
    expect(fromChunks(chunksOf(v))).toBe(v);
    const n = chunkNeighbours(0x1234);
    expect(new Set(n).size).toBe(137);
    expect(n.every((x) => hammingDistance(BigInt(x), 0x1234n) <= 2)).toBe(true);
  });
});
