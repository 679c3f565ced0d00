// What a saved search may point at, and its stored form (contract: Saved searches). Only a
// relative list page of one of the families qualifies; the stored URL keeps every filter as
// given (repeated values, SortBy order, metadata filters, MRQL text) and drops pagination and
// one-off navigation or error state, so opening it reruns the same search on current data.
import { badRequest } from '../../core/http/errors.js';

export const FAMILIES = [
  'resources',
  'notes',
  'groups',
  'tags',
  'categories',
  'resourceCategories',
  'noteTypes',
  'relations',
  'relationTypes',
  'queries',
  'templatePartials',
  'downloads',
  'logs',
  'reductions',
] as const;
export type Family = (typeof FAMILIES)[number];

/** Alternate layouts of a list page (`/resources/details`); they share the base family. */
export const LAYOUTS = ['details', 'simple', 'text', 'timeline'] as const;

export const MAX_URL_BYTES = 64 * 1024;

/** Parameters that are paging or a single visit's state, never part of a search (lower-cased). */
const TRANSIENT = new Set(['page', 'maxresults', 'perpage', 'pagesize', 'offset', 'redirect', 'next', '_form', 'csrf_token', 'success']);
const TIMELINE_PARAMS: Record<string, (v: string) => boolean> = {
  timelinemode: (v) => v === 'created' || v === 'updated',
  timelinegranularity: (v) => v === 'week' || v === 'month' || v === 'year',
  timelineanchor: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
};

export interface SearchTarget {
  family: Family;
  layout: string;
  url: string;
}

function isFamily(s: string): s is Family {
  return (FAMILIES as readonly string[]).includes(s);
}

export function isKnownFamily(s: string): s is Family {
  return isFamily(s);
}

/** Checks and normalises a URL to save; 400 with the reason otherwise. */
export function normaliseSearchUrl(raw: string): SearchTarget {
  const text = raw.trim();
  if (text === '') throw badRequest('url is required');
  if (Buffer.byteLength(text, 'utf8') > MAX_URL_BYTES) throw badRequest('url is longer than 64 KiB');
  if (!text.startsWith('/') || text.startsWith('//') || text.includes('\\') || /[\r\n\t\0]/.test(text)) {
    throw badRequest('url must be a relative path on this site, such as /resources?Tags=3');
  }
  if (text.includes('#')) throw badRequest('url must not contain a fragment (#…)');
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query = q < 0 ? '' : text.slice(q + 1);
  if (path === '/v1' || path.startsWith('/v1/')) throw badRequest('url must be a list page, not an API route');
  if (/\.(json|body)$/.test(path)) throw badRequest('url must be a list page, not a .json or .body form of it');

  const segments = path.split('/').slice(1);
  const [base, layout = '', ...rest] = segments;
  if (!isFamily(base) || rest.length > 0 || (layout !== '' && !(LAYOUTS as readonly string[]).includes(layout))) {
    throw badRequest(`url must be a list page of one of: ${FAMILIES.join(', ')} (detail pages cannot be saved)`);
  }

  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const [key, value] of params) {
    const lower = key.toLowerCase();
    if (TRANSIENT.has(lower)) continue;
    // `error` is a failed form's message, except that the downloads page filters on `Error`.
    if (lower === 'error' && !(base === 'downloads' && key === 'Error')) continue;
    const timeline = TIMELINE_PARAMS[lower];
    if (timeline) {
      if (layout !== 'timeline') continue;
      if (!timeline(value)) throw badRequest(`invalid ${key} "${value}"`);
    }
    if (value === '') continue;
    kept.append(key, value);
  }
  const search = kept.toString();
  return { family: base, layout, url: search ? `${path}?${search}` : path };
}
