// Note StartDate/EndDate on writes (companion §12.1): the HTML datetime-local form
// YYYY-MM-DDTHH:MM, read as UTC. Seconds, a date alone and RFC 3339 with an offset are accepted
// too; an explicit empty value clears the date.
import { badRequest } from '../../core/http/errors.js';

const FORM = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|z|[+-]\d{2}:\d{2})?$/;

/** undefined = not given, null = clear, else the ISO timestamp. */
export function parseNoteDate(raw: string | undefined, field: string): string | null | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return null;
  const m = FORM.exec(text);
  const fail = () => badRequest(`${field} is not a valid date (expected YYYY-MM-DDTHH:MM)`);
  if (!m) throw fail();
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  if (m[4] === undefined && zone !== undefined) throw fail();
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const utc = new Date(Date.UTC(...fields));
  // Date.UTC rolls 2024-02-30 over into March; a real date reads back unchanged.
  const same =
    utc.getUTCFullYear() === fields[0] && utc.getUTCMonth() === fields[1] && utc.getUTCDate() === fields[2] && utc.getUTCHours() === fields[3] && utc.getUTCMinutes() === fields[4] && utc.getUTCSeconds() === fields[5];
  if (!same) throw fail();
  const ms = frac ? Math.round(Number(frac) * 1000) : 0;
  let time = utc.getTime() + ms;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    time -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  return new Date(time).toISOString();
}

/** A stored timestamp in the datetime-local form the edit form shows. */
export function formDate(iso: string | null): string {
  return iso ? iso.slice(0, 16) : '';
}
