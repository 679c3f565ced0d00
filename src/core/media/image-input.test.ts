import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readSize, rgbPixels, thumbnail } from './image.js';
import { mayBeSvg } from './image-input.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-image-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stored SVG files', () => {
  it('cannot draw the files stored next to them into thumbnails or hashes, whatever type was claimed', async () => {
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff0000' } }).png().toFile(join(dir, 'neighbour'));
    const svg = join(dir, 'upload');
    writeFileSync(svg, '\n <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="neighbour" width="10" height="10"/></svg>');
    // Read by path, librsvg would resolve the href against this folder and draw the red file.
    const { data } = await thumbnail(svg, 10, 10);
    const { data: pixels } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
    expect([pixels[0], pixels[1], pixels[2]].every((v) => v > 240)).toBe(true);
    const rgb = await rgbPixels(svg, 2, 2);
    expect([...rgb].every((v) => v > 240)).toBe(true);
    expect(await readSize(svg)).toEqual({ width: 10, height: 10 });
  });

  it('are recognised by their first bytes: markup, gzip and UTF-16, not rasters', () => {
    expect(mayBeSvg(Buffer.from('<svg/>'))).toBe(true);
    expect(mayBeSvg(Buffer.from('\ufeff  <?xml version="1.0"?>'))).toBe(true);
    expect(mayBeSvg(Buffer.from([0x1f, 0x8b, 0x08]))).toBe(true);
    expect(mayBeSvg(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toBe(true);
    expect(mayBeSvg(Buffer.from(' '.repeat(64)))).toBe(true);
    expect(mayBeSvg(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(mayBeSvg(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
    expect(mayBeSvg(Buffer.alloc(0))).toBe(false);
  });
});
