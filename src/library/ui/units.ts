// Human units for settings and sizes: durations as "7d", "48h", "1h30m", "250ms" (the stored
// value is nanoseconds), byte sizes as "64M" (binary multiples, the suffixes the settings
// accept) and "64 MiB" for reading.

const NS_UNITS: [string, number][] = [
  ['h', 3_600_000_000_000],
  ['m', 60_000_000_000],
  ['s', 1_000_000_000],
  ['ms', 1_000_000],
  ['us', 1_000],
  ['ns', 1],
];
const DAY_NS = 24 * 3_600_000_000_000;

/** Nanoseconds as a short duration: whole days as "7d", else Go units ("48h", "1h30m"). */
export function humanDuration(ns: number): string {
  if (!Number.isFinite(ns) || ns < 0) return String(ns);
  if (ns === 0) return '0';
  if (ns % DAY_NS === 0) return `${ns / DAY_NS}d`;
  let rest = Math.round(ns);
  let out = '';
  for (const [unit, size] of NS_UNITS) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return out;
}

const SIZE_UNITS = ['K', 'M', 'G', 'T'];

/** Bytes in the settings' input form: the largest exact binary suffix ("64M"), else bytes. */
export function sizeInput(bytes: number): string {
  let n = bytes;
  let unit = '';
  for (const u of SIZE_UNITS) {
    if (n === 0 || n % 1024 !== 0) break;
    n /= 1024;
    unit = u;
  }
  return `${n}${unit}`;
}

/** Bytes for reading: "1.5 MiB", "820 B". */
export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  if (bytes < 1024) return `${bytes} B`;
  let n = bytes;
  let i = -1;
  while (n >= 1024 && i < SIZE_UNITS.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n >= 10 ? Math.round(n) : Math.round(n * 10) / 10} ${SIZE_UNITS[i]}iB`;
}
