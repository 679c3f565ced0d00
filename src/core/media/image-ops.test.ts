import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { dominantColors, imageInput, loadImageLibrary, parseHexColor, resizeImage, visiblePart } from './image-ops.js';

describe('image-ops', () => {
  beforeAll(loadImageLibrary);

  it('hands SVG over as bytes, so a stored SVG cannot draw the files next to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stacks-image-ops-'));
    try {
      await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff0000' } }).png().toFile(join(dir, 'neighbour'));
      const svg = join(dir, 'clip');
      writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="neighbour" width="10" height="10"/></svg>');
      // Read from its path, librsvg would draw the neighbour (red); as bytes it draws nothing.
      expect(await dominantColors(svg, 1)).toEqual(['#ff0000']);
      expect(await dominantColors(await imageInput(svg), 1)).toEqual([]);
      // The content decides, whatever type was claimed: a raster goes by path, SVG as bytes.
      expect(await imageInput(join(dir, 'neighbour'))).toBe(join(dir, 'neighbour'));
      expect(Buffer.isBuffer(await imageInput(svg))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cuts overlays to the canvas and reads hex colours', () => {
    expect(visiblePart(30, 30, -10, 40, 50, 50)).toEqual({ cut: { left: 10, top: 0, width: 20, height: 10 }, left: 0, top: 40 });
    expect(visiblePart(10, 10, 50, 0, 50, 50)).toBeNull();
    expect(parseHexColor('#f00')).toEqual({ r: 255, g: 0, b: 0, alpha: 1 });
    expect(parseHexColor('00ff0080').alpha).toBeCloseTo(128 / 255);
    expect(() => parseHexColor('#12345')).toThrow(/invalid color/);
  });

  it('stops when the calling plugin has no time left', async () => {
    const red = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ff0000' } }).png().toBuffer();
    await expect(resizeImage(red, 2, 2, 'fill', { deadline: Date.now() - 1 })).rejects.toThrow('image processing timed out');
    await expect(resizeImage(red, 2, 2, 'fill', { deadline: Date.now() + 60_000 })).resolves.toMatchObject({ mime_type: 'image/png' });
  });
});
