import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv, readTextPreview, textKindOf } from './text-preview.js';

describe('textKindOf', () => {
  it('picks the kind from the type, then the name', () => {
    expect(textKindOf('text/markdown', 'x')).toBe('markdown');
    expect(textKindOf('text/plain; charset=utf-8', 'notes.md')).toBe('markdown');
    expect(textKindOf('application/json', 'x')).toBe('json');
    expect(textKindOf('text/plain', 'data.csv')).toBe('csv');
    expect(textKindOf('text/plain', 'a.txt')).toBe('text');
    expect(textKindOf('image/png', 'a.png')).toBeNull();
    expect(textKindOf('application/octet-stream', 'a.bin')).toBeNull();
  });
});

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes and CRLF', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n', 10, 10)).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
  });
  it('guesses semicolons and caps rows and columns', () => {
    expect(parseCsv('a;b;c\n1;2;3\n4;5;6\n', 2, 2)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('readTextPreview', () => {
  let dir = '';
  afterAll(() => rm(dir, { recursive: true, force: true }));
  it('bounds what it reads and refuses binary', async () => {
    dir = await mkdtemp(join(tmpdir(), 'preview-'));
    const big = join(dir, 'big.txt');
    await writeFile(big, 'é'.repeat(1000));
    const cut = await readTextPreview(big, 'text', 101);
    expect(cut?.truncated).toBe(true);
    expect(cut?.text).toBe('é'.repeat(50));
    const bin = join(dir, 'x.bin');
    await writeFile(bin, Buffer.from([65, 0, 66]));
    expect(await readTextPreview(bin, 'text')).toBeNull();
    const json = join(dir, 'a.json');
    await writeFile(json, '{"a":[1,2]}');
    expect((await readTextPreview(json, 'json'))?.text).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
  });
});
