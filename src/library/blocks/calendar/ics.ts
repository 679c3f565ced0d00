// Reading iCalendar feeds for calendar blocks (companion §11.6): events are normalised once per
// fetch, recurring events keep only their first occurrence (RRULE is not expanded), and parsed
// feeds are cached — at most 100 feeds, 30 minutes each, refreshed with conditional requests, a
// stale copy served when a refresh fails, and concurrent requests for one feed sharing a fetch.
import ical from 'node-ical';
import { LruMap } from '../../../core/lru.js';

export const ICS_MAX_BYTES = 10 * 1024 * 1024;
export const ICS_TTL_MS = 30 * 60 * 1000;
export const ICS_CACHE_ENTRIES = 100;

export interface IcsEvent {
  uid: string;
  title: string;
  /** Epoch milliseconds; all-day events start at midnight UTC of their date. */
  start: number;
  end: number;
  allDay: boolean;
  location?: string;
  description?: string;
}

/** Property values may arrive as {params, val} when the property carries parameters. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { val?: unknown }).val === 'string') return (v as { val: string }).val;
  return undefined;
}

/** node-ical builds date-only values at local midnight; read the calendar date back as UTC. */
function instant(d: Date, dateOnly: boolean): number {
  return dateOnly ? Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) : d.getTime();
}

export function parseIcs(text: string): IcsEvent[] {
  let parsed: Record<string, unknown>;
  try {
    parsed = ical.sync.parseICS(text) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`not a valid iCalendar file: ${(e as Error).message}`);
  }
  const events: IcsEvent[] = [];
  for (const [key, raw] of Object.entries(parsed)) {
    const c = raw as { type?: string; start?: Date; end?: Date; datetype?: string; uid?: string; summary?: unknown; location?: unknown; description?: unknown };
    if (c.type !== 'VEVENT' || !(c.start instanceof Date) || Number.isNaN(c.start.getTime())) continue;
    const allDay = c.datetype === 'date';
    const start = instant(c.start, allDay);
    let end = c.end instanceof Date && !Number.isNaN(c.end.getTime()) ? instant(c.end, allDay) : start;
    if (allDay && end <= start) end = start + 86_400_000;
    if (end < start) end = start;
    const event: IcsEvent = { uid: c.uid ?? key, title: textOf(c.summary) ?? '', start, end, allDay };
    const location = textOf(c.location);
    const description = textOf(c.description);
    if (location) event.location = location;
    if (description) event.description = description;
    events.push(event);
  }
  return events.sort((a, b) => a.start - b.start);
}

export interface FetchedFeed {
  status: number;
  text?: string;
  etag?: string;
  lastModified?: string;
}

/** Fetches a feed; conditional headers are passed when a cached copy exists. */
export type FeedFetcher = (url: string, headers: Record<string, string>) => Promise<FetchedFeed>;

interface Entry {
  events: IcsEvent[];
  fetchedAt: number;
  etag?: string;
  lastModified?: string;
}

export interface FeedResult {
  events: IcsEvent[];
  fetchedAt: number;
  /** Set when a refresh failed and an older copy was served. */
  stale?: string;
}

export class IcsCache {
  private readonly entries: LruMap<string, Entry>;
  private readonly inFlight = new Map<string, Promise<FeedResult>>();

  constructor(
    private readonly fetcher: FeedFetcher,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = ICS_TTL_MS,
    maxEntries = ICS_CACHE_ENTRIES,
  ) {
    this.entries = new LruMap(maxEntries);
  }

  private fresh(key: string): Entry | undefined {
    const e = this.entries.peek(key);
    return e && this.now() - e.fetchedAt < this.ttlMs ? e : undefined;
  }

  /** Events of a remote feed. Throws when the feed cannot be read and nothing is cached. */
  async fromUrl(url: string): Promise<FeedResult> {
    const key = `url:${url}`;
    const hit = this.fresh(key);
    if (hit) return { events: hit.events, fetchedAt: hit.fetchedAt };
    const running = this.inFlight.get(key);
    if (running) return running;
    const work = this.refresh(key, url).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async refresh(key: string, url: string): Promise<FeedResult> {
    const old = this.entries.peek(key);
    const headers: Record<string, string> = {};
    if (old?.etag) headers['if-none-match'] = old.etag;
    if (old?.lastModified) headers['if-modified-since'] = old.lastModified;
    try {
      const res = await this.fetcher(url, headers);
      if (res.status === 304 && old) {
        const entry = { ...old, fetchedAt: this.now() };
        this.entries.set(key, entry);
        return { events: entry.events, fetchedAt: entry.fetchedAt };
      }
      if (res.status < 200 || res.status > 299 || res.text === undefined) throw new Error(`the calendar server answered HTTP ${res.status}`);
      const entry: Entry = { events: parseIcs(res.text), fetchedAt: this.now(), etag: res.etag, lastModified: res.lastModified };
      this.entries.set(key, entry);
      return { events: entry.events, fetchedAt: entry.fetchedAt };
    } catch (e) {
      if (old) return { events: old.events, fetchedAt: old.fetchedAt, stale: (e as Error).message };
      throw e;
    }
  }

  /** Events of a stored file, cached under a key that changes with the file's content. */
  fromText(key: string, load: () => Promise<string>): Promise<FeedResult> {
    const cacheKey = `file:${key}`;
    const hit = this.fresh(cacheKey);
    if (hit) return Promise.resolve({ events: hit.events, fetchedAt: hit.fetchedAt });
    const running = this.inFlight.get(cacheKey);
    if (running) return running;
    const work = load()
      .then((text) => {
        const entry: Entry = { events: parseIcs(text), fetchedAt: this.now() };
        this.entries.set(cacheKey, entry);
        return { events: entry.events, fetchedAt: entry.fetchedAt };
      })
      .finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, work);
    return work;
  }
}
