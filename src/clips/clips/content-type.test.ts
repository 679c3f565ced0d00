import { describe, expect, it } from 'vitest';
import { detectContentType, looksLikeText, sniffType, typeFromExtension } from './content-type.js';

const detect = (head: string | Buffer, filename = '', declared: string | null = null) => {
  const buf = Buffer.from(head);
  return detectContentType({ declared, filename, head: buf, size: buf.length });
};

describe('content types', () => {
  it('maps the minimum extension table, case-insensitively, and falls back to the MIME database', () => {
    expect(typeFromExtension('a.JS')).toBe('text/javascript');
    expect(typeFromExtension('a.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(typeFromExtension('a.mkv')).toBe('video/x-matroska');
    expect(typeFromExtension('a.wav')).toBe('audio/wav');
    expect(typeFromExtension('a.yaml')).toBe('text/yaml');
    expect(typeFromExtension('noext')).toBeNull();
    expect(typeFromExtension('trailing.')).toBeNull();
  });

  it('sniffs the minimum magic-number table', () => {
    const cases: [number[] | string, string][] = [
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], 'image/png'],
      [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
      ['GIF87a...', 'image/gif'],
      ['RIFF\0\0\0\0WEBPVP8', 'image/webp'],
      ['%PDF-1.7', 'application/pdf'],
      [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
      [[0x1f, 0x8b, 0x08, 0], 'application/gzip'],
      ['BM....', 'image/bmp'],
      ['\0\0\0\x18ftypisom', 'video/mp4'],
      [[0x1a, 0x45, 0xdf, 0xa3], 'video/webm'],
      ['  <HTML><body>', 'text/html'],
      ['<?xml version="1.0"?>', 'text/xml'],
    ];
    for (const [bytes, type] of cases) expect(sniffType(Buffer.from(bytes as never))).toBe(type);
    expect(sniffType(Buffer.from('plain'))).toBeNull();
  });

  it('applies the rules in order, then the text and Markdown refinements', () => {
    expect(detect('x', 'a.png', 'text/csv; charset=utf-8')).toBe('text/csv');
    expect(detect('%PDF-1.4', 'a.txt', 'application/octet-stream')).toBe('text/plain');
    expect(detect('%PDF-1.4')).toBe('application/pdf');
    expect(detect('héllo')).toBe('text/plain');
    expect(detect(Buffer.from([0xc3, 0x28]))).toBe('application/octet-stream');
    expect(detect('  {"a": [1]} ')).toBe('application/json');
    expect(detect('42')).toBe('text/plain');
    expect(detect('{broken')).toBe('text/plain');
    expect(detect('<!DocType html><p>')).toBe('text/html');
    expect(detect('anything', 'x.Markdown', 'text/plain')).toBe('text/markdown');
  });

  it('keeps large plain text plain when its JSON cannot be read whole', () => {
    const head = Buffer.from('[1, 2, 3]');
    expect(detectContentType({ filename: '', head, size: head.length + 10 })).toBe('text/plain');
  });

  it('treats a multibyte character cut at the end of the sample as text', () => {
    expect(looksLikeText(Buffer.from('ab\xe2\x82', 'latin1'))).toBe(true);
    expect(looksLikeText(Buffer.from([0x61, 0]))).toBe(false);
  });
});
