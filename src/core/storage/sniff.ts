// Content-type detection from the bytes themselves (companion §3.2): magic numbers through
// file-type, then a few text formats it leaves out (SVG, HTML, XML, JSON, plain text). The
// client's Content-Type and the file name are never trusted.
import { fileTypeFromBuffer } from 'file-type';

const TEXT_TYPES: [RegExp, string][] = [
  [/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/i, 'image/svg+xml'],
  [/^\s*(<!--[\s\S]*?-->\s*)*<(!doctype html|html|head|body)[\s>]/i, 'text/html; charset=utf-8'],
  [/^\s*<\?xml[\s]/i, 'text/xml; charset=utf-8'],
];

function looksLikeUtf8Text(head: Buffer): boolean {
  if (head.length === 0) return false;
  if (head.includes(0)) return false;
  // A cut in the middle of a multi-byte sequence at the end of the sample is fine.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > 2) return false;
  // eslint-disable-next-line no-control-regex
  const controls = (text.match(/[\u0001-\u0008\u000e-\u001f]/g) ?? []).length;
  return controls <= text.length / 100;
}

/** The MIME type of a file from its first bytes (at least 4100 for best results). */
export async function sniffMime(head: Buffer): Promise<string> {
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (found) {
    // file-type names some XML-based formats by their container; SVG is recognised below.
    if (found.mime !== 'application/xml') return found.mime;
  }
  const text = head.toString('utf8', 0, Math.min(head.length, 1024));
  for (const [pattern, mime] of TEXT_TYPES) if (pattern.test(text)) return mime;
  if (looksLikeUtf8Text(head)) {
    const t = text.trimStart();
    if ((t.startsWith('{') || t.startsWith('[')) && isJsonStart(head)) return 'application/json';
    return 'text/plain; charset=utf-8';
  }
  return found?.mime ?? 'application/octet-stream';
}

function isJsonStart(head: Buffer): boolean {
  try {
    JSON.parse(head.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The bare type: parameters removed, lower case (companion §3.2). */
export function bareMime(mime: string): string {
  return mime.split(';')[0].trim().toLowerCase();
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/bmp': '.bmp',
  'image/tiff': '.tiff',
  'image/svg+xml': '.svg',
  'image/x-icon': '.ico',
  'image/heic': '.heic',
  'image/heif': '.heif',
  'image/avif': '.avif',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/gzip': '.gz',
  'application/json': '.json',
  'text/plain': '.txt',
  'text/html': '.html',
  'text/xml': '.xml',
  'text/csv': '.csv',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'video/x-matroska': '.mkv',
  'video/x-msvideo': '.avi',
  'audio/mpeg': '.mp3',
  'audio/ogg': '.ogg',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/flac': '.flac',
};

const TYPES_BY_EXT: Record<string, string> = Object.fromEntries(Object.entries(EXTENSIONS).map(([m, e]) => [e, m]));

/** The canonical extension of a MIME type ("" when it has none). */
export function extensionFor(mime: string): string {
  return EXTENSIONS[bareMime(mime)] ?? '';
}

/** The MIME type for a file extension, for serving stored files. */
export function mimeForExtension(ext: string): string {
  return TYPES_BY_EXT[ext.toLowerCase()] ?? (ext.toLowerCase() === '.jpeg' ? 'image/jpeg' : 'application/octet-stream');
}
