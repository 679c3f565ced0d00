// GET …/calendar/events (companion §11.6): the events of a calendar block's sources and its
// custom events that overlap [start, end], where `end` covers its whole day. A source that
// cannot be read is reported under `errors` instead of failing the whole answer.
import { readFile, stat } from 'node:fs/promises';
import { badRequest } from '../../../core/http/errors.js';
import { parseJson } from '../../../core/db/values.js';
import { safeFetch } from '../../../core/net/safe-fetch.js';
import type { LibraryConfig } from '../../config.js';
import type { Visibility } from '../../auth/visibility.js';
import type { BlockRow, JsonObject } from '../records.js';
import { storedResourcePath } from '../resource-files.js';
import type { BlockViewRepository } from '../view.repository.js';
import { ICS_MAX_BYTES, IcsCache, type FeedFetcher, type FeedResult, type IcsEvent } from './ics.js';

const DAY = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const PALETTE = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#14b8a6', '#ec4899', '#64748b'];
export const CUSTOM_CALENDAR = { id: 'custom', name: 'Custom events', color: '#6366f1' };

export interface CalendarEvent {
  id: string;
  calendarId: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  location?: string;
  description?: string;
}

export interface CalendarEvents {
  events: CalendarEvent[];
  calendars: { id: string; name: string; color: string }[];
  errors?: { calendarId: string; error: string }[];
  cachedAt: string;
}

/** Parses the required YYYY-MM-DD range; `end` is inclusive of its whole day. */
export function parseRange(start: string | undefined, end: string | undefined): { from: number; to: number } {
  const day = (v: string | undefined, name: string) => {
    if (v === undefined || v === '') throw badRequest(`${name} is required (YYYY-MM-DD)`);
    const ms = DATE_ONLY.test(v) ? Date.parse(`${v}T00:00:00Z`) : NaN;
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v) throw badRequest(`${name} is not a valid date (expected YYYY-MM-DD)`);
    return ms;
  };
  const from = day(start, 'start');
  const to = day(end, 'end') + DAY - 1;
  if (to < from) throw badRequest('end must not be before start');
  return { from, to };
}

function overlaps(startMs: number, endMs: number, from: number, to: number): boolean {
  return startMs <= to && (endMs > from || startMs >= from);
}

/** What calendars read from the configuration: file roots, the fetch policy and timeouts. */
export type CalendarConfig = Pick<LibraryConfig, 'filePath' | 'altFs' | 'fetchPolicy' | 'remote'>;

/** The library's feed fetcher: the private-address policy, the remote timeouts and the 10 MB cap. */
export function libraryFetcher(config: CalendarConfig): FeedFetcher {
  return async (url, headers) => {
    const res = await safeFetch(url, { policy: config.fetchPolicy, ...config.remote, maxBytes: ICS_MAX_BYTES, headers: { accept: 'text/calendar, */*', ...headers } });
    if (res.status < 200 || res.status > 299) {
      res.body.resume();
      return { status: res.status };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    return { status: res.status, text: Buffer.concat(chunks).toString('utf8'), etag: header('etag'), lastModified: header('last-modified') };
  };
}

export class CalendarService {
  readonly cache: IcsCache;

  constructor(
    private readonly files: BlockViewRepository,
    private readonly config: CalendarConfig,
    fetcher: FeedFetcher = libraryFetcher(config),
  ) {
    this.cache = new IcsCache(fetcher);
  }

  private async resourceFeed(resourceId: number, vis: Visibility): Promise<FeedResult> {
    // A resource the caller cannot see is reported exactly like one that does not exist.
    const row = await this.files.storedFile(resourceId, vis);
    if (!row) throw new Error(`resource ${resourceId} does not exist`);
    const file = await storedResourcePath(this.config, row);
    if (!file) throw new Error(`the file of resource ${resourceId} is missing or not available`);
    return this.cache.fromText(`${row.id}:${row.hash}:${row.location}`, async () => {
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw new Error(`the file of resource ${resourceId} is missing`);
      if (info.size > ICS_MAX_BYTES) throw new Error(`the calendar file is larger than the limit of ${ICS_MAX_BYTES} bytes`);
      return readFile(file, 'utf8');
    });
  }

  /** The events `vis` may read: the block was found through `vis`, and so are its resource sources. */
  async events(block: BlockRow, startDate: string | undefined, endDate: string | undefined, vis: Visibility): Promise<CalendarEvents> {
    if (block.type !== 'calendar') throw badRequest(`block ${block.id} is not a calendar block`);
    const { from, to } = parseRange(startDate, endDate);
    const content = parseJson<JsonObject>(block.content, {});
    const state = parseJson<JsonObject>(block.state, {});
    const sources = (Array.isArray(content.calendars) ? content.calendars : []) as { id: string; name: string; color?: string; source: { type: string; url?: string; resourceId?: number } }[];
    const calendars = sources.map((c, i) => ({ id: c.id, name: c.name, color: c.color ?? PALETTE[i % PALETTE.length] }));
    const errors: { calendarId: string; error: string }[] = [];
    const events: CalendarEvent[] = [];
    let cachedAt = Infinity;

    const results = await Promise.all(
      sources.map(async (c) => {
        try {
          const feed = c.source.type === 'url' ? await this.cache.fromUrl(c.source.url!) : await this.resourceFeed(c.source.resourceId!, vis);
          return { c, feed };
        } catch (e) {
          errors.push({ calendarId: c.id, error: (e as Error).message });
          return null;
        }
      }),
    );
    for (const r of results) {
      if (!r) continue;
      if (r.feed.stale) errors.push({ calendarId: r.c.id, error: `showing a copy from ${new Date(r.feed.fetchedAt).toISOString()}: ${r.feed.stale}` });
      cachedAt = Math.min(cachedAt, r.feed.fetchedAt);
      const seen = new Map<string, number>();
      for (const e of r.feed.events as IcsEvent[]) {
        if (!overlaps(e.start, e.end, from, to)) continue;
        const n = seen.get(e.uid) ?? 0;
        seen.set(e.uid, n + 1);
        const event: CalendarEvent = {
          id: `${r.c.id}:${e.uid}${n ? `:${n}` : ''}`,
          calendarId: r.c.id,
          title: e.title,
          start: new Date(e.start).toISOString(),
          end: new Date(e.end).toISOString(),
          allDay: e.allDay,
        };
        if (e.location) event.location = e.location;
        if (e.description) event.description = e.description;
        events.push(event);
      }
    }

    const custom = (Array.isArray(state.customEvents) ? state.customEvents : []) as (CalendarEvent & JsonObject)[];
    for (const e of custom) {
      const s = Date.parse(DATE_ONLY.test(e.start) ? `${e.start}T00:00:00Z` : e.start);
      const en = Date.parse(DATE_ONLY.test(e.end) ? `${e.end}T00:00:00Z` : e.end);
      if (!overlaps(s, en, from, to)) continue;
      const event: CalendarEvent = { id: e.id, calendarId: 'custom', title: e.title, start: e.start, end: e.end, allDay: e.allDay === true };
      if (e.location) event.location = e.location;
      if (e.description) event.description = e.description;
      events.push(event);
    }
    if (custom.length > 0) calendars.push(CUSTOM_CALENDAR);
    events.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
    const out: CalendarEvents = { events, calendars, cachedAt: new Date(cachedAt === Infinity ? Date.now() : cachedAt).toISOString() };
    if (errors.length) out.errors = errors;
    return out;
  }
}
