// What the viewer shows of a text file: Markdown, JSON, CSV or plain text, read from the start
// of the file and bounded (a 2 GB log must not be read into memory to show its first lines).
// The page escapes everything; this module only decides the kind and cuts the text.
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { bareMime } from '../../core/storage/sniff.js';

export const TEXT_PREVIEW_BYTES = 256 * 1024;
export const CSV_PREVIEW_ROWS = 500;
export const CSV_PREVIEW_COLUMNS = 50;

export type TextKind = 'markdown' | 'json' | 'csv' | 'text';

export interface TextPreview {
  kind: TextKind;
  text: string;
  /** The file goes on past what is shown. */
  truncated: boolean;
  /** CSV only: the rows shown (the first is the header). */
  rows?: string[][];
}

const TEXT_APPLICATION = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml', 'application/toml', 'application/x-sh', 'application/sql', 'application/ld+json']);

/** The preview kind of a file from its content type and name, or null for a non-text file. */
export function textKindOf(contentType: string, name: string): TextKind | null {
  const mime = bareMime(contentType);
  const ext = extname(name).toLowerCase();
  if (mime === 'text/markdown' || mime === 'text/x-markdown' || ext === '.md' || ext === '.markdown') return 'markdown';
  if (mime === 'application/json' || mime.endsWith('+json') || ext === '.json') return 'json';
  if (mime === 'text/csv' || ext === '.csv') return 'csv';
  if (mime.startsWith('text/') || TEXT_APPLICATION.has(mime) || ['.txt', '.log', '.yaml', '.yml', '.toml', '.ini', '.xml'].includes(ext)) return 'text';
  return null;
}

/** Reads up to `limit` bytes; null when the bytes are not text (a NUL byte). */
export async function readTextPreview(path: string, kind: TextKind, limit = TEXT_PREVIEW_BYTES): Promise<TextPreview | null> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buf = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    bytes = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (bytes.includes(0)) return null;
  const truncated = size > bytes.length;
  // A cut inside a multi-byte character leaves a replacement character at the end: drop it.
  let text = bytes.toString('utf8');
  if (truncated) text = text.replace(/\uFFFD+$/, '');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (kind === 'json' && !truncated) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not valid JSON: shown as it is.
    }
  }
  if (kind === 'csv') return { kind, text, truncated, rows: parseCsv(text, CSV_PREVIEW_ROWS, CSV_PREVIEW_COLUMNS) };
  return { kind, text, truncated };
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF), delimiter guessed among , ; and tab. */
export function parseCsv(text: string, maxRows: number, maxColumns: number): string[][] {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const delimiter = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row.slice(0, maxColumns));
    row = [];
  };
  while (i < text.length && rows.length < maxRows) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
    i++;
  }
  if (rows.length < maxRows && (field !== '' || row.length > 0)) endRow();
  return rows;
}
