import { describe, expect, it } from 'vitest';
import { hasExif, readExif } from './exif.js';

/** A big-endian TIFF block: IFD0 with Make and a GPS pointer, then what `extra` appends. */
function tiff(gpsPointer: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('MM', 0, 'latin1');
  b.writeUInt16BE(42, 2);
  b.writeUInt32BE(8, 4);
  b.writeUInt16BE(2, 8); // two entries
  // Make: ASCII, 4 bytes ("Zed\0") stored inline
  b.writeUInt16BE(0x010f, 10);
  b.writeUInt16BE(2, 12);
  b.writeUInt32BE(4, 14);
  b.write('Zed\0', 18, 'latin1');
  // GPS IFD pointer: LONG
  b.writeUInt16BE(0x8825, 22);
  b.writeUInt16BE(4, 24);
  b.writeUInt32BE(1, 26);
  b.writeUInt32BE(gpsPointer, 30);
  return b;
}

describe('readExif', () => {
  it('reads big-endian blocks, with or without the Exif header, and omits what is missing', () => {
    expect(readExif(tiff(8))).toEqual({ camera_make: 'Zed' });
    expect(readExif(Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff(8)]))).toEqual({ camera_make: 'Zed' });
    expect(hasExif(tiff(8))).toBe(true);
  });

  it('survives pointers out of bounds, truncation and garbage', () => {
    expect(readExif(tiff(0xffffff00))).toEqual({ camera_make: 'Zed' });
    expect(readExif(tiff(8).subarray(0, 20))).toEqual({});
    expect(readExif(undefined)).toEqual({});
    expect(hasExif(Buffer.from('not exif at all'))).toBe(false);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let n = 0; n < 300; n++) {
      const junk = Buffer.alloc(16 + (next() % 200));
      for (let i = 0; i < junk.length; i++) junk[i] = next() & 0xff;
      junk.write(n % 2 ? 'II*\0' : 'MM\0*', 0, 'latin1');
      expect(() => readExif(junk)).not.toThrow();
    }
  });
});
