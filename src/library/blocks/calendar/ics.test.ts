import { describe, expect, it } from 'vitest';
import { ICS_TTL_MS, IcsCache, parseIcs, type FeedFetcher } from './ics.js';

const ICS = (summary: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:one',
    'DTSTART:20240510T090000Z',
    'DTEND:20240510T100000Z',
    `SUMMARY:${summary}`,
    'LOCATION:Room 1',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:day',
    'DTSTART;VALUE=DATE:20240512',
    'SUMMARY;LANGUAGE=en:Holiday',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:weekly',
    'DTSTART:20240501T120000Z',
    'DTEND:20240501T130000Z',
    'RRULE:FREQ=WEEKLY;COUNT=10',
    'SUMMARY:Weekly',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('parseIcs', () => {
  it('normalises events, all-day dates and the first occurrence of recurring ones', () => {
    const events = parseIcs(ICS('Meeting'));
    expect(events).toEqual([
      { uid: 'weekly', title: 'Weekly', start: Date.parse('2024-05-01T12:00:00Z'), end: Date.parse('2024-05-01T13:00:00Z'), allDay: false },
      { uid: 'one', title: 'Meeting', start: Date.parse('2024-05-10T09:00:00Z'), end: Date.parse('2024-05-10T10:00:00Z'), allDay: false, location: 'Room 1' },
      { uid: 'day', title: 'Holiday', start: Date.parse('2024-05-12T00:00:00Z'), end: Date.parse('2024-05-13T00:00:00Z'), allDay: true },
    ]);
  });

  it('reads an empty or odd calendar without events', () => {
    expect(parseIcs('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n')).toEqual([]);
    expect(parseIcs('hello')).toEqual([]);
  });
});

describe('IcsCache', () => {
  function fakeFeed() {
    const calls: Record<string, string>[] = [];
    let body = ICS('First');
    let status = 200;
    const fetcher: FeedFetcher = async (_url, headers) => {
      calls.push(headers);
      if (status === 500) throw new Error('connection refused');
      if (headers['if-none-match'] === '"v1"' && status === 304) return { status: 304 };
      return { status, text: body, etag: '"v1"', lastModified: 'Wed, 01 May 2024 00:00:00 GMT' };
    };
    return {
      calls,
      fetcher,
      set(next: { body?: string; status?: number }) {
        body = next.body ?? body;
        status = next.status ?? status;
      },
    };
  }

  it('serves a feed from the cache for 30 minutes, then revalidates with conditional headers', async () => {
    let now = 1_000_000;
    const feed = fakeFeed();
    const cache = new IcsCache(feed.fetcher, () => now);
    const a = await cache.fromUrl('https://x.test/a.ics');
    expect(a.events[1].title).toBe('First');
    now += ICS_TTL_MS - 1;
    await cache.fromUrl('https://x.test/a.ics');
    expect(feed.calls).toHaveLength(1);
    now += 2;
    feed.set({ status: 304 });
    const b = await cache.fromUrl('https://x.test/a.ics');
    expect(feed.calls).toHaveLength(2);
    expect(feed.calls[1]).toEqual({ 'if-none-match': '"v1"', 'if-modified-since': 'Wed, 01 May 2024 00:00:00 GMT' });
    expect(b.events[1].title).toBe('First');
    expect(b.fetchedAt).toBe(now);
    now += ICS_TTL_MS;
    feed.set({ status: 200, body: ICS('Second') });
    expect((await cache.fromUrl('https://x.test/a.ics')).events[1].title).toBe('Second');
  });

  it('serves the stale copy when a refresh fails, and fails without one', async () => {
    let now = 0;
    const feed = fakeFeed();
    const cache = new IcsCache(feed.fetcher, () => now);
    await cache.fromUrl('https://x.test/a.ics');
    now += ICS_TTL_MS + 1;
    feed.set({ status: 500 });
    const stale = await cache.fromUrl('https://x.test/a.ics');
    expect(stale.stale).toMatch(/connection refused/);
    expect(stale.events).toHaveLength(3);
    await expect(cache.fromUrl('https://x.test/other.ics')).rejects.toThrow(/connection refused/);
    feed.set({ status: 404 });
    await expect(cache.fromUrl('https://x.test/missing.ics')).rejects.toThrow(/HTTP 404/);
  });

  it('shares one fetch between concurrent requests and keeps at most the configured number of feeds', async () => {
    const feed = fakeFeed();
    const cache = new IcsCache(feed.fetcher, () => 0, ICS_TTL_MS, 2);
    await Promise.all([cache.fromUrl('https://x.test/1'), cache.fromUrl('https://x.test/1'), cache.fromUrl('https://x.test/1')]);
    expect(feed.calls).toHaveLength(1);
    await cache.fromUrl('https://x.test/2');
    await cache.fromUrl('https://x.test/3');
    await cache.fromUrl('https://x.test/1');
    expect(feed.calls).toHaveLength(4);
  });
});
