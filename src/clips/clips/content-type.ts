// Content-type detection for new clips (companion §3.2): declared type, then extension, then
// magic numbers, then a UTF-8 check; then HTML/JSON promotion of plain text and the Markdown
// rule. Stored types are the lowercase essence without parameters.
import { lookup } from 'mime-types';

/** The spec's minimum table wins over the MIME database where they could disagree. */
const EXTENSIONS: Record<string, string> = {
  txt: 'text/plain', html: 'text/html', htm: 'text/html', css: 'text/css', csv: 'text/csv',
  js: 'text/javascript', mjs: 'text/javascript', json: 'application/json', xml: 'application/xml',
  md: 'text/markdown', markdown: 'text/markdown', pdf: 'application/pdf', zip: 'application/zip',
  gz: 'application/gzip', doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', rtf: 'application/rtf',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  svg: 'image/svg+xml', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', heic: 'image/heic',
  avif: 'image/avif', mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm',
  mkv: 'video/x-matroska', mp3: 'audio/mpeg', wav: 'audio/wav',
};

export function normaliseType(raw: string | undefined | null): string {
  return (raw ?? '').split(';')[0].trim().toLowerCase();
}

export function isTextType(type: string): boolean {
  return type.startsWith('text/') || type === 'application/json';
}

export function typeFromExtension(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  if (dot < 0 || dot === filename.length - 1) return null;
  const ext = filename.slice(dot + 1).toLowerCase();
  return EXTENSIONS[ext] ?? (lookup(ext) || null);
}

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** Magic numbers of the first 512 bytes (§3.2.2). */
export function sniffType(sample: Buffer): string | null {
  if (startsWith(sample, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(sample, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(sample, ascii('GIF87a')) || startsWith(sample, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(sample, ascii('RIFF')) && startsWith(sample, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(sample, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(sample, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (startsWith(sample, [0x1f, 0x8b, 0x08])) return 'application/gzip';
  if (startsWith(sample, [0x42, 0x4d])) return 'image/bmp';
  if (startsWith(sample, ascii('ftyp'), 4)) return 'video/mp4';
  if (startsWith(sample, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  const text = sample.toString('latin1').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'text/html';
  if (sample.toString('latin1').startsWith('<?xml')) return 'text/xml';
  return null;
}

/** Valid UTF-8 without NUL; a sequence cut at the end of the sample is not an error. */
export function looksLikeText(sample: Buffer): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export interface Detection {
  /** The part's declared Content-Type header (or plugin/tag-server field). */
  declared?: string | null;
  filename: string;
  /** The first bytes of the content (at least 512 when it has them). */
  head: Buffer;
  /** Whole content size: JSON promotion needs the whole text, which only `head` may hold. */
  size: number;
}

export function detectContentType(d: Detection): string {
  const sample = d.head.subarray(0, 512);
  const declared = normaliseType(d.declared);
  let type =
    (declared && declared !== 'application/octet-stream' ? declared : null) ??
    typeFromExtension(d.filename) ??
    sniffType(sample) ??
    (looksLikeText(sample) ? 'text/plain' : 'application/octet-stream');

  if (type === 'text/plain') type = refinePlainText(d.head, d.size) ?? type;
  if (/\.(md|markdown)$/i.test(d.filename)) type = 'text/markdown';
  return type;
}

/** HTML documents and JSON objects/arrays sent as plain text get their own type (§3.2 rule 5). */
function refinePlainText(head: Buffer, size: number): string | null {
  const text = head.toString('utf8').trim();
  if (text.slice(0, 14).toLowerCase() === '<!doctype html') return 'text/html';
  // Only content wholly held in `head` can be parsed; larger text stays text/plain.
  if ((text.startsWith('{') || text.startsWith('[')) && size <= head.length) {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      return null;
    }
  }
  return null;
}

/** The extension used for a download name when the clip has no filename (§3.3). */
export function downloadExtension(type: string): string {
  const map: Record<string, string> = {
    'text/plain': '.txt', 'text/html': '.html', 'application/json': '.json', 'text/markdown': '.md',
    'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'application/pdf': '.pdf',
  };
  return map[type] ?? '';
}
