// Value formatting of [property], [item] and [mrql value=…] (companion §5.3): RFC 3339 times,
// date/datetime/time/filesize formats, and Go reference-time layouts.
import { escapeHtml } from '../../core/html/jsx.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

// Longest tokens first so "2006" wins over "2", "January" over "Jan", "-07:00" over "-0700".
const TOKENS: [string, (d: Date) => string][] = [
  ['January', (d) => MONTHS[d.getMonth()]],
  ['Monday', (d) => DAYS[d.getDay()]],
  ['Z07:00', (d) => zone(d, true, true)],
  ['-07:00', (d) => zone(d, true, false)],
  ['-0700', (d) => zone(d, false, false)],
  ['2006', (d) => pad(d.getFullYear(), 4)],
  ['.000', (d) => `.${pad(d.getMilliseconds(), 3)}`],
  ['Jan', (d) => MONTHS[d.getMonth()].slice(0, 3)],
  ['Mon', (d) => DAYS[d.getDay()].slice(0, 3)],
  ['MST', (d) => (d.getTimezoneOffset() === 0 ? 'UTC' : zone(d, false, false))],
  ['_2', (d) => String(d.getDate()).padStart(2, ' ')],
  ['01', (d) => pad(d.getMonth() + 1)],
  ['02', (d) => pad(d.getDate())],
  ['03', (d) => pad(((d.getHours() + 11) % 12) + 1)],
  ['04', (d) => pad(d.getMinutes())],
  ['05', (d) => pad(d.getSeconds())],
  ['06', (d) => pad(d.getFullYear() % 100)],
  ['15', (d) => pad(d.getHours())],
  ['PM', (d) => (d.getHours() < 12 ? 'AM' : 'PM')],
  ['pm', (d) => (d.getHours() < 12 ? 'am' : 'pm')],
  ['1', (d) => String(d.getMonth() + 1)],
  ['2', (d) => String(d.getDate())],
  ['3', (d) => String(((d.getHours() + 11) % 12) + 1)],
];

function zone(d: Date, colon: boolean, zulu: boolean): string {
  const off = -d.getTimezoneOffset();
  if (off === 0 && zulu) return 'Z';
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  return `${sign}${pad(Math.floor(a / 60))}${colon ? ':' : ''}${pad(a % 60)}`;
}

/** Formats a date with a Go layout written against Mon Jan 2 15:04:05 MST 2006. */
export function goLayout(d: Date, layout: string): string {
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [tok, fn] of TOKENS) {
      if (layout.startsWith(tok, i)) {
        out += fn(d);
        i += tok.length;
        continue outer;
      }
    }
    out += layout[i++];
  }
  return out;
}

export function humanBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${Number(v.toFixed(1))} ${units[u]}`;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Text of a value as [property] shows it (unescaped). */
export function formatValue(value: unknown, format: string | undefined, layout: string | undefined): string {
  if (value === null || value === undefined) return '';
  const asDate = value instanceof Date ? value : typeof value === 'string' && ISO.test(value) ? new Date(value) : null;
  if (asDate && !Number.isNaN(asDate.getTime())) {
    if (layout) return goLayout(asDate, layout);
    if (format === 'date') return goLayout(asDate, '2006-01-02');
    if (format === 'datetime') return goLayout(asDate, '2006-01-02 15:04');
    if (format === 'time') return goLayout(asDate, '15:04');
    return typeof value === 'string' ? value : asDate.toISOString();
  }
  if (format === 'filesize' && (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))) return humanBytes(Number(value));
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : formatValue(v, format, layout))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Reads a dot path from a record: names, and numeric segments indexing lists. */
export function readPath(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const seg of path.split('.')) {
    if (seg === '') continue;
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur;
}

export const esc = escapeHtml;
