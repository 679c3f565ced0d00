// The few EXIF tags plugins ask for (clip-behaviour.md §8.6 `image.metadata`), read from the
// TIFF structure sharp hands back as `metadata().exif`. Only what is present is returned: a
// missing tag is a missing key, never a zero. The input is untrusted, so every offset is
// bounds-checked and every IFD is visited at most once.

export interface ExifSummary {
  camera_make?: string;
  camera_model?: string;
  lens?: string;
  iso?: number;
  aperture?: number;
  shutter_speed?: number;
  focal_length?: number;
  /** `YYYY-MM-DDTHH:MM:SS`, from DateTimeOriginal or else DateTime. */
  date?: string;
  /** Signed decimal degrees (south and west negative). */
  gps_lat?: number;
  gps_lon?: number;
}

const TAG = {
  make: 0x010f,
  model: 0x0110,
  dateTime: 0x0132,
  exifIfd: 0x8769,
  gpsIfd: 0x8825,
  exposureTime: 0x829a,
  fNumber: 0x829d,
  iso: 0x8827,
  dateTimeOriginal: 0x9003,
  focalLength: 0x920a,
  lensModel: 0xa434,
  gpsLatRef: 1,
  gpsLat: 2,
  gpsLonRef: 3,
  gpsLon: 4,
};

/** Bytes per value of each TIFF field type (0 = unknown type). */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const MAX_ENTRIES = 512;

interface Entry {
  type: number;
  count: number;
  /** Offset of the value bytes inside the TIFF block. */
  at: number;
}

class Tiff {
  constructor(
    private readonly buf: Buffer,
    private readonly little: boolean,
  ) {}

  u16(at: number): number {
    return this.little ? this.buf.readUInt16LE(at) : this.buf.readUInt16BE(at);
  }

  u32(at: number): number {
    return this.little ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at);
  }

  i32(at: number): number {
    return this.little ? this.buf.readInt32LE(at) : this.buf.readInt32BE(at);
  }

  fits(at: number, length: number): boolean {
    return at >= 0 && length >= 0 && at + length <= this.buf.length;
  }

  ifd(at: number): Map<number, Entry> {
    const out = new Map<number, Entry>();
    if (!this.fits(at, 2)) return out;
    const n = Math.min(this.u16(at), MAX_ENTRIES);
    for (let i = 0; i < n; i++) {
      const e = at + 2 + i * 12;
      if (!this.fits(e, 12)) break;
      const type = this.u16(e + 2);
      const count = this.u32(e + 4);
      const size = (TYPE_SIZE[type] ?? 0) * count;
      if (size === 0) continue;
      const valueAt = size <= 4 ? e + 8 : this.u32(e + 8);
      if (this.fits(valueAt, size)) out.set(this.u16(e), { type, count, at: valueAt });
    }
    return out;
  }

  text(e: Entry | undefined): string | undefined {
    if (!e || (e.type !== 2 && e.type !== 7 && e.type !== 1)) return undefined;
    const t = this.buf
      .subarray(e.at, e.at + e.count)
      .toString('latin1')
      .replace(/\0[\s\S]*$/, '')
      .trim();
    return t === '' ? undefined : t;
  }

  /** The index-th value as a number (rationals divided out), or undefined. */
  number(e: Entry | undefined, index = 0): number | undefined {
    if (!e || index >= e.count) return undefined;
    const at = e.at + index * TYPE_SIZE[e.type];
    switch (e.type) {
      case 1:
      case 7:
        return this.buf[at];
      case 3:
        return this.u16(at);
      case 4:
        return this.u32(at);
      case 9:
        return this.i32(at);
      case 5:
      case 10: {
        const num = e.type === 5 ? this.u32(at) : this.i32(at);
        const den = e.type === 5 ? this.u32(at + 4) : this.i32(at + 4);
        return den === 0 ? undefined : num / den;
      }
      default:
        return undefined;
    }
  }
}

/** The TIFF block inside sharp's EXIF buffer (which starts with `Exif\0\0`), or the buffer itself. */
function tiffOf(exif: Buffer): Tiff | null {
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const buf = exif.subarray(start);
  if (buf.length < 8) return null;
  const order = buf.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return null;
  const tiff = new Tiff(buf, order === 'II');
  return tiff.u16(2) === 42 ? tiff : null;
}

function isoDate(raw: string | undefined): string | undefined {
  const m = raw?.match(/^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/);
  if (!m || m[1] === '0000') return undefined;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

function degrees(tiff: Tiff, e: Entry | undefined, ref: string | undefined, negative: string): number | undefined {
  if (!e || e.count < 3) return undefined;
  const [d, m, s] = [0, 1, 2].map((i) => tiff.number(e, i));
  if (d === undefined || m === undefined || s === undefined) return undefined;
  const value = d + m / 60 + s / 3600;
  return ref?.toUpperCase() === negative ? -value : value;
}

/** True when the buffer holds a readable EXIF (TIFF) structure. */
export function hasExif(exif: Buffer | undefined): boolean {
  return exif !== undefined && tiffOf(exif) !== null;
}

/** The summary of §8.6; `{}` when there is no readable EXIF. */
export function readExif(exif: Buffer | undefined): ExifSummary {
  const tiff = exif ? tiffOf(exif) : null;
  if (!tiff) return {};
  const ifd0 = tiff.ifd(tiff.u32(4));
  const pointer = (tag: number) => {
    const at = tiff.number(ifd0.get(tag));
    return at === undefined || at === tiff.u32(4) ? new Map<number, Entry>() : tiff.ifd(at);
  };
  const sub = pointer(TAG.exifIfd);
  const gps = pointer(TAG.gpsIfd);
  const out: ExifSummary = {};
  const put = <K extends keyof ExifSummary>(key: K, value: ExifSummary[K] | undefined) => {
    if (value !== undefined && !(typeof value === 'number' && !Number.isFinite(value))) out[key] = value;
  };
  put('camera_make', tiff.text(ifd0.get(TAG.make)));
  put('camera_model', tiff.text(ifd0.get(TAG.model)));
  put('lens', tiff.text(sub.get(TAG.lensModel)));
  put('iso', tiff.number(sub.get(TAG.iso)));
  put('aperture', tiff.number(sub.get(TAG.fNumber)));
  put('shutter_speed', tiff.number(sub.get(TAG.exposureTime)));
  put('focal_length', tiff.number(sub.get(TAG.focalLength)));
  put('date', isoDate(tiff.text(sub.get(TAG.dateTimeOriginal))) ?? isoDate(tiff.text(ifd0.get(TAG.dateTime))));
  const lat = degrees(tiff, gps.get(TAG.gpsLat), tiff.text(gps.get(TAG.gpsLatRef)), 'S');
  const lon = degrees(tiff, gps.get(TAG.gpsLon), tiff.text(gps.get(TAG.gpsLonRef)), 'W');
  if (lat !== undefined && lon !== undefined) {
    out.gps_lat = lat;
    out.gps_lon = lon;
  }
  return out;
}
