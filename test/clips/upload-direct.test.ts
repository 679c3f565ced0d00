// POST /clips has two readers: a body that declares a Content-Length of at most
// DIRECT_BODY_BYTES is read whole and parsed in one pass, anything else (larger, or chunked) is
// streamed. Each case here sends the same bytes both ways and expects the same answer, and the
// same state afterwards (rows, tmp/), whichever reader took it.
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT_BODY_BYTES } from '../../src/clips/clips/upload.js';
import { API, multipart, startTestClips, type ClipJson, type TestClips } from './helper.js';

let t: TestClips;
let editor: string;
beforeAll(async () => {
  t = await startTestClips();
  editor = await t.key('editor', 'editor');
});
afterAll(async () => t?.close());

type Mode = 'length' | 'chunked';
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Sends a body with its Content-Length (the whole-body reader when small) or chunked (the streamed one). */
function send(body: Buffer, contentType: string, mode: Mode, query = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${editor}`, 'content-type': contentType };
    if (mode === 'length') headers['content-length'] = body.length;
    else headers['transfer-encoding'] = 'chunked';
    const req = request(`${t.url}${API}/clips${query}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on('error', reject);
    if (mode === 'chunked') {
      // Two chunks, so the streamed reader sees the body arrive in pieces.
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else {
      req.end(body);
    }
  });
}

const clipCount = async () => (await t.req<{ total: number }>(editor, 'GET', '/clips')).body.total;
const tmpFiles = () => readdirSync(join(t.dataDir, 'tmp'));

/** The answer without what differs between two creations of the same clip. */
function comparable(a: Answer): Answer {
  const { id: _id, created_at: _at, ...rest } = a.body;
  void _id;
  void _at;
  return { status: a.status, body: a.status < 300 ? rest : a.body };
}

/**
 * Sends `body` both ways and returns the two answers, after checking they agree. A created clip
 * is deleted after each send, so the second one creates it again instead of finding a duplicate.
 */
async function bothWays(body: Buffer, contentType: string, query = ''): Promise<Answer> {
  const answers: Answer[] = [];
  for (const mode of ['length', 'chunked'] as const) {
    const before = await clipCount();
    const a = await send(body, contentType, mode, query);
    answers.push(a);
    if (a.status === 201) await t.req(editor, 'DELETE', `/clips/${a.body.id as number}`);
    expect(await clipCount()).toBe(before);
    expect(tmpFiles()).toEqual([]);
  }
  expect(comparable(answers[0])).toEqual(comparable(answers[1]));
  return answers[0];
}

/** A one-part body of exactly `total` bytes, and the size of its part. */
function bodyOfLength(total: number): { body: Buffer; contentType: string; size: number } {
  const empty = multipart([{ filename: 'edge.bin', type: 'application/octet-stream', data: '' }], 'edgeboundary');
  const size = total - empty.body.length;
  return { ...multipart([{ filename: 'edge.bin', type: 'application/octet-stream', data: Buffer.alloc(size, 'e') }], 'edgeboundary'), size };
}

const raw = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'));
const CT = 'multipart/form-data; boundary=b';

describe('whole-body and streamed upload readers', () => {
  it('stores a body of exactly the threshold, and one byte over it, alike', async () => {
    for (const total of [DIRECT_BODY_BYTES, DIRECT_BODY_BYTES + 1]) {
      const { body, contentType, size } = bodyOfLength(total);
      expect(body.length).toBe(total);
      const a = await bothWays(body, contentType);
      expect(a).toMatchObject({ status: 201, body: { filename: 'edge.bin', size, content_type: 'application/octet-stream' } });
    }
  });

  it('answers a duplicate with the existing clip (200) either way', async () => {
    const { body, contentType } = multipart([{ filename: 'dup.txt', type: 'text/plain', data: 'duplicate bytes' }]);
    const first = await send(body, contentType, 'length');
    expect(first.status).toBe(201);
    for (const mode of ['length', 'chunked'] as const) {
      const again = await send(body, contentType, mode);
      expect(again).toEqual({ status: 200, body: first.body });
    }
    await t.req(editor, 'DELETE', `/clips/${first.body.id as number}`);
  });

  it('takes the first part when a text field comes first, and ignores later fields', async () => {
    const { body, contentType } = multipart([
      { name: 'note', data: 'a text field first' },
      { name: 'file', filename: 'later.txt', type: 'text/plain', data: 'ignored file' },
      { name: 'extra', data: 'ignored field' },
    ]);
    const a = await bothWays(body, contentType, '?filename=named.md');
    expect(a).toMatchObject({ status: 201, body: { filename: 'named.md', content_type: 'text/markdown', size: 18 } });
  });

  it('keeps the part type, filename decoding and sniffing of the streamed reader', async () => {
    const cases = [
      raw('--b\nContent-Disposition: form-data; name="f"; filename="C:\\\\dir\\\\x.csv"\n\na,b\n--b--\n'),
      raw('--b\nContent-Disposition: form-data; name="f"; filename*=utf-8\'\'%C3%A9t%C3%A9.txt\nContent-Type: Text/Plain; charset=UTF-8\n\nsummer\n--b--\n'),
      raw('--b\nContent-Disposition: form-data; name="f"\n\n{"pasted": true}\n--b--\n'),
      raw('preamble to skip\n--b\ncontent-disposition: form-data; name="f"; filename="p.png"\ncontent-type: application/octet-stream\n\n\u0089PNG\r\n\u001a\n....\n--b--\n'),
    ];
    const answers = [];
    for (const body of cases) answers.push((await bothWays(body, CT)).body);
    expect(answers.map((b) => [b.filename, b.content_type])).toEqual([
      ['x.csv', 'text/csv'],
      ['été.txt', 'text/plain'],
      ['', 'application/json'],
      ['p.png', 'image/png'],
    ]);
  });

  it('reads near-plain bodies (split by hand or left to the parser) as the streamed reader does', async () => {
    const part = (disposition: string, more = '') => `--b\nContent-Disposition: ${disposition}\n${more}\nbody text\n`;
    const cases: [string, string, Buffer][] = [
      ['lower-case header names', CT, raw('--b\ncontent-disposition: form-data; name="f"; filename="low.txt"\ncontent-type: text/plain\n\nbody text\n--b--\n')],
      ['no closing line break', CT, raw(`${part('form-data; name="f"; filename="a.txt"')}--b--`)],
      ['quoted boundary', 'multipart/form-data; boundary="b"', raw(`${part('form-data; name="f"; filename="q.txt"')}--b--\n`)],
      ['a dot-dot filename', CT, raw(`${part('form-data; name="f"; filename=".."')}--b--\n`)],
      ['a filename with a slash', CT, raw(`${part('form-data; name="f"; filename="dir/s.txt"')}--b--\n`)],
      ['a non-ASCII filename', CT, Buffer.from(`${part('form-data; name="f"; filename="naïve.txt"')}--b--\n`.replace(/\n/g, '\r\n'))],
      ['an escaped quote', CT, raw(`${part('form-data; name="f"; filename="a\\"b.txt"')}--b--\n`)],
      ['a third header', CT, raw(`${part('form-data; name="f"; filename="h.txt"', 'Content-Transfer-Encoding: binary\n')}--b--\n`)],
      ['two spaces in the disposition', CT, raw(`${part('form-data;  name="f"; filename="w.txt"')}--b--\n`)],
      ['an attachment part first', CT, raw(`${part('attachment; filename="skip.txt"')}${part('form-data; name="f"; filename="kept.txt"')}--b--\n`)],
      ['a delimiter-like line inside', CT, raw('--b\nContent-Disposition: form-data; name="f"; filename="d.txt"\n\nbefore\n--bX after\n--b--\n')],
      ['an epilogue', CT, raw(`${part('form-data; name="f"; filename="e.txt"')}--b--\nepilogue text\n`)],
      ['a preamble', CT, raw(`preamble\n${part('form-data; name="f"; filename="p.txt"')}--b--\n`)],
    ];
    const seen: unknown[] = [];
    for (const [what, contentType, body] of cases) {
      const a = await bothWays(body, contentType);
      seen.push([what, a.status, a.body.filename, a.body.size]);
    }
    expect(seen).toEqual([
      ['lower-case header names', 201, 'low.txt', 9],
      ['no closing line break', 201, 'a.txt', 9],
      ['quoted boundary', 201, 'q.txt', 9],
      ['a dot-dot filename', 201, '', 9],
      ['a filename with a slash', 201, 's.txt', 9],
      ['a non-ASCII filename', 201, 'naïve.txt', 9],
      ['an escaped quote', 201, 'a"b.txt', 9],
      ['a third header', 201, 'h.txt', 9],
      ['two spaces in the disposition', 201, 'w.txt', 9],
      ['an attachment part first', 201, 'kept.txt', 9],
      ['a delimiter-like line inside', 201, 'd.txt', 6],
      ['an epilogue', 201, 'e.txt', 9],
      ['a preamble', 201, 'p.txt', 9],
    ]);
  });

  it('refuses bodies with no complete first part the same way', async () => {
    const cases = [
      raw('--b--\n'),
      raw('no boundary anywhere'),
      raw(''),
      raw('--b\nContent-Disposition: form-data; name="f"; filename="cut.txt"\n\nends inside the part'),
      raw('--b\nContent-Disposition: form-data; name="f"; filename="cut.txt"\nends inside the headers'),
    ];
    for (const body of cases) {
      const a = await bothWays(body, CT);
      expect([body.toString(), a]).toEqual([body.toString(), { status: 400, body: { error: 'failed to read multipart data' } }]);
    }
  });

  it('keeps a complete first part whatever malformed tail follows it', async () => {
    const cases = [
      raw('--b\nContent-Disposition: form-data; name="f"; filename="ok.txt"\n\nfirst part is whole\n--b\nContent-Disposition: form-data; name="g"\n\nsecond never ends'),
      raw('--b\nContent-Disposition: form-data; name="f"; filename="ok.txt"\n\nfirst part is whole\n--b\n'),
    ];
    for (const body of cases) {
      const a = await bothWays(body, CT);
      expect(a).toMatchObject({ status: 201, body: { filename: 'ok.txt', size: 19 } });
    }
  });

  it('answers 413 for more than 1000 parts, whichever reader counts them', async () => {
    const parts = Array.from({ length: 1001 }, (_, i) => ({ name: `p${i}`, data: 'x' }));
    const { body, contentType } = multipart(parts);
    expect(body.length).toBeLessThan(DIRECT_BODY_BYTES);
    const a = await bothWays(body, contentType);
    expect(a).toEqual({ status: 413, body: { error: 'request body too large: more than 1000 parts' } });
  });

  it('leaves no temp file and no row when the client goes away inside a small declared body', async () => {
    const before = await clipCount();
    await new Promise<void>((resolve) => {
      const req = request(`${t.url}${API}/clips`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}`, 'content-type': CT, 'content-length': 4096 },
      });
      req.on('error', () => resolve());
      req.write(raw('--b\nContent-Disposition: form-data; name="f"; filename="gone.txt"\n\nonly the start'));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    // The service is still answering, and nothing of the cut upload was kept.
    const { body, contentType } = multipart([{ filename: 'after.txt', data: 'after the cut' }]);
    const after = await send(body, contentType, 'length');
    expect(after.status).toBe(201);
    await t.req(editor, 'DELETE', `/clips/${after.body.id as number}`);
    expect(await clipCount()).toBe(before);
    expect(tmpFiles()).toEqual([]);
  });

  it('stores what it answered: the bytes read back are the bytes sent', async () => {
    const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const { body, contentType } = multipart([{ filename: 'bytes.bin', type: 'application/octet-stream', data }]);
    const a = await send(body, contentType, 'length');
    expect(a.status).toBe(201);
    const back = await fetch(`${t.url}${API}/clips/${a.body.id as number}/data`, { headers: { authorization: `Bearer ${editor}` } });
    expect(Buffer.from(await back.arrayBuffer()).equals(data)).toBe(true);
    const listed = await t.req<{ clips: ClipJson[] }>(editor, 'GET', '/clips');
    expect(listed.body.clips[0]).toMatchObject({ id: a.body.id, size: 3000 });
  });

  it('writes uploads that arrive together in shared transactions, each one whole: its own id, bytes and search entry', async () => {
    // Sent at once, these reach the database in the same turns of the event loop and are
    // written by shared transactions (group commit); every one must still be its own clip.
    const words = Array.from({ length: 24 }, (_, i) => `batchword${String.fromCharCode(97 + i)}${i}`);
    const answers = await Promise.all(
      words.map((w) => {
        const { body, contentType } = multipart([{ filename: `${w}.txt`, type: 'text/plain', data: `text with ${w} inside` }]);
        return send(body, contentType, 'length');
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(words.map(() => 201));
    const ids = answers.map((a) => a.body.id as number);
    expect(new Set(ids).size).toBe(words.length);
    for (const [i, w] of words.entries()) {
      const found = await t.req<{ clips: ClipJson[] }>(editor, 'GET', `/clips?search=${w}`);
      expect(found.body.clips.map((c) => c.id)).toEqual([ids[i]]);
      const back = await fetch(`${t.url}${API}/clips/${ids[i]}/data`, { headers: { authorization: `Bearer ${editor}` } });
      expect(await back.text()).toBe(`text with ${w} inside`);
    }
    for (const id of ids) await t.req(editor, 'DELETE', `/clips/${id}`);
    expect(tmpFiles()).toEqual([]);
  });
});

