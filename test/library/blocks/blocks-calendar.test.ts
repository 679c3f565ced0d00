// Calendar blocks over HTTP, fed by a local ICS server: events over a date range, the first
// occurrence of recurring events, custom events, the 30-minute cache, the 10 MB cap, feeds
// stored as resources, and the private-address policy (loopback refused without
// -allow-private-hosts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { loseStoredFile, uploadResource } from '../../helpers/uploads.js';

type Events = {
  events: { id: string; calendarId: string; title: string; start: string; end: string; allDay: boolean; location?: string; description?: string }[];
  calendars: { id: string; name: string; color: string }[];
  errors?: { calendarId: string; error: string }[];
  cachedAt: string;
};

const FEED = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Stacks tests//EN',
  'BEGIN:VEVENT',
  'UID:standup',
  'DTSTART:20240510T090000Z',
  'DTEND:20240510T093000Z',
  'SUMMARY:Stand-up',
  'LOCATION:Room 4',
  'DESCRIPTION:Daily sync',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:holiday',
  'DTSTART;VALUE=DATE:20240520',
  'DTEND;VALUE=DATE:20240521',
  'SUMMARY:Holiday',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly',
  'DTSTART:20240502T120000Z',
  'DTEND:20240502T130000Z',
  'RRULE:FREQ=WEEKLY;COUNT=20',
  'SUMMARY:Weekly review',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:june',
  'DTSTART:20240615T080000Z',
  'DTEND:20240615T090000Z',
  'SUMMARY:June event',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

let lib: TestLibrary;
let strict: TestLibrary;
let ics: Server;
let icsBase: string;
const hits: Record<string, number> = {};
let noteId: number;

beforeAll(async () => {
  ics = createServer((req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    if (path.startsWith('/feed.ics') || path.startsWith('/cached.ics')) {
      res.writeHead(200, { 'content-type': 'text/calendar', etag: '"feed-1"' });
      res.end(FEED);
    } else if (path === '/big.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      // Over 10 MB without a Content-Length: the cap applies while streaming.
      const chunk = 'X'.repeat(1024 * 1024);
      for (let i = 0; i < 11; i++) res.write(chunk);
      res.end();
    } else {
      res.writeHead(404);
      res.end('missing');
    }
  });
  await new Promise<void>((resolve) => ics.listen(0, '127.0.0.1', resolve));
  icsBase = `http://127.0.0.1:${(ics.address() as AddressInfo).port}`;
  lib = await startTestLibrary(['-allow-private-hosts']);
  strict = await startTestLibrary();
  noteId = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'calendars' })).body.ID;
});
afterAll(async () => {
  await lib?.close();
  await strict?.close();
  await new Promise((resolve) => ics?.close(resolve));
});

async function calendarBlock(target: TestLibrary, note: number, calendars: unknown[]): Promise<number> {
  const r = await target.json<{ id: number }>('POST', '/v1/note/block', { noteId: note, type: 'calendar', content: { calendars } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function events(target: TestLibrary, block: number, start: string, end: string): Promise<Events> {
  const r = await target.json<Events>('GET', `/v1/note/block/calendar/events?blockId=${block}&start=${start}&end=${end}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('calendar events', () => {
  it('answers the events of a URL feed in the range, recurring events at their first occurrence only', async () => {
    const block = await calendarBlock(lib, noteId, [{ id: 'work', name: 'Work', color: '#112233', source: { type: 'url', url: `${icsBase}/feed.ics` } }]);
    const may = await events(lib, block, '2024-05-01', '2024-05-31');
    expect(may.calendars).toEqual([{ id: 'work', name: 'Work', color: '#112233' }]);
    expect(may.errors).toBeUndefined();
    expect(may.events.map((e) => e.title)).toEqual(['Weekly review', 'Stand-up', 'Holiday']);
    expect(may.events.find((e) => e.title === 'Stand-up')).toEqual({
      id: 'work:standup',
      calendarId: 'work',
      title: 'Stand-up',
      start: '2024-05-10T09:00:00.000Z',
      end: '2024-05-10T09:30:00.000Z',
      allDay: false,
      location: 'Room 4',
      description: 'Daily sync',
    });
    expect(may.events.find((e) => e.title === 'Holiday')).toMatchObject({ allDay: true, start: '2024-05-20T00:00:00.000Z' });
    // The weekly event's later occurrences are not expanded.
    expect((await events(lib, block, '2024-05-08', '2024-05-31')).events.map((e) => e.title)).toEqual(['Stand-up', 'Holiday']);
    // `end` covers its whole day.
    expect((await events(lib, block, '2024-05-10', '2024-05-10')).events.map((e) => e.title)).toEqual(['Stand-up']);
    expect((await events(lib, block, '2024-06-01', '2024-06-30')).events.map((e) => e.title)).toEqual(['June event']);
    expect(Date.parse(may.cachedAt)).not.toBeNaN();
  });

  it('caches a feed for 30 minutes instead of fetching it again', async () => {
    const block = await calendarBlock(lib, noteId, [{ id: 'c', name: 'Cached', source: { type: 'url', url: `${icsBase}/cached.ics` } }]);
    const first = await events(lib, block, '2024-05-01', '2024-05-31');
    await events(lib, block, '2024-06-01', '2024-06-30');
    const again = await events(lib, block, '2024-05-01', '2024-05-31');
    expect(hits['/cached.ics']).toBe(1);
    expect(again.cachedAt).toBe(first.cachedAt);
  });

  it('reports unreadable sources per calendar instead of failing', async () => {
    const block = await calendarBlock(lib, noteId, [
      { id: 'ok', name: 'OK', source: { type: 'url', url: `${icsBase}/feed.ics?ok` } },
      { id: 'gone', name: 'Gone', source: { type: 'url', url: `${icsBase}/nothing.ics` } },
      { id: 'big', name: 'Big', source: { type: 'url', url: `${icsBase}/big.ics` } },
    ]);
    const r = await events(lib, block, '2024-05-01', '2024-05-31');
    expect(r.events.length).toBe(3);
    const errors = Object.fromEntries((r.errors ?? []).map((e) => [e.calendarId, e.error]));
    expect(errors.gone).toMatch(/HTTP 404/);
    expect(errors.big).toMatch(/larger than the limit of 10485760 bytes/);
    expect(errors.ok).toBeUndefined();
  });

  it('refuses a loopback feed without -allow-private-hosts', async () => {
    const note = (await strict.json<{ ID: number }>('POST', '/v1/note', { Name: 'strict' })).body.ID;
    const block = await calendarBlock(strict, note, [{ id: 'local', name: 'Local', source: { type: 'url', url: `${icsBase}/feed.ics?strict` } }]);
    const r = await events(strict, block, '2024-05-01', '2024-05-31');
    expect(r.events).toEqual([]);
    expect(r.errors?.[0]).toMatchObject({ calendarId: 'local' });
    expect(r.errors?.[0].error).toMatch(/blocked request/);
    expect(hits['/feed.ics?strict']).toBeUndefined();
  });

  it('reads a feed stored as a resource', async () => {
    const { ID: id } = await uploadResource(lib, 'team.ics', FEED);
    const block = await calendarBlock(lib, noteId, [{ id: 'file', name: 'From a file', source: { type: 'resource', resourceId: id } }]);
    const r = await events(lib, block, '2024-05-01', '2024-05-31');
    expect(r.errors).toBeUndefined();
    expect(r.events.map((e) => e.title)).toEqual(['Weekly review', 'Stand-up', 'Holiday']);
    expect(r.calendars[0]).toMatchObject({ id: 'file', name: 'From a file' });
    // A resource whose file is gone is reported, not fatal.
    const lost = await uploadResource(lib, 'lost.ics', `${FEED}\n`);
    loseStoredFile(lib, lost);
    const gone = await calendarBlock(lib, noteId, [{ id: 'lost', name: 'Lost file', source: { type: 'resource', resourceId: lost.ID } }]);
    const missing = await events(lib, gone, '2024-05-01', '2024-05-31');
    expect(missing.errors?.[0].error).toMatch(/missing/);
  });

  it('includes custom events from the block state with calendarId custom', async () => {
    const block = await calendarBlock(lib, noteId, []);
    const patch = await lib.json('PATCH', `/v1/note/block/state?id=${block}`, {
      state: {
        view: 'agenda',
        customEvents: [
          { id: 'x1', title: 'Dentist', start: '2024-05-03T15:00:00Z', end: '2024-05-03T16:00:00Z', allDay: false, location: 'Town' },
          { id: 'x2', title: 'Later', start: '2024-07-01T15:00:00Z', end: '2024-07-01T16:00:00Z', allDay: false },
        ],
      },
    });
    expect(patch.status).toBe(200);
    const r = await events(lib, block, '2024-05-01', '2024-05-31');
    expect(r.events).toEqual([{ id: 'x1', calendarId: 'custom', title: 'Dentist', start: '2024-05-03T15:00:00Z', end: '2024-05-03T16:00:00Z', allDay: false, location: 'Town' }]);
    expect(r.calendars.map((c) => c.id)).toEqual(['custom']);
  });

  it('needs blockId, start and end as dates, and a calendar block', async () => {
    const block = await calendarBlock(lib, noteId, []);
    const text = (await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type: 'text' })).body.id;
    const cases: [string, number, RegExp][] = [
      [`blockId=${block}&end=2024-05-01`, 400, /start is required/],
      [`blockId=${block}&start=2024-05-01`, 400, /end is required/],
      [`start=2024-05-01&end=2024-05-02`, 400, /blockId is required/],
      [`blockId=${block}&start=2024-5-1&end=2024-05-02`, 400, /start is not a valid date/],
      [`blockId=${block}&start=2024-05-01&end=2024-02-30`, 400, /end is not a valid date/],
      [`blockId=${block}&start=2024-05-02&end=2024-05-01`, 400, /end must not be before start/],
      [`blockId=${text}&start=2024-05-01&end=2024-05-02`, 400, /not a calendar block/],
      [`blockId=999999&start=2024-05-01&end=2024-05-02`, 404, /not found/],
    ];
    for (const [q, status, message] of cases) {
      const r = await lib.json<{ error: string }>('GET', `/v1/note/block/calendar/events?${q}`);
      expect(r.status, q).toBe(status);
      expect(r.body.error, q).toMatch(message);
    }
  });
});
