// Clip filenames (companion §3.3): what is stored, what a rename may set, and the names used
// for downloads and ZIP entries.
import { badRequest } from '../../core/http/errors.js';
import { downloadExtension } from './content-type.js';

export const MAX_FILENAME = 255;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/** Validates a rename or ?filename= override; throws 400 with the reason. */
export function validFilename(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest('filename is required');
  if ([...name].length > MAX_FILENAME) throw badRequest(`filename too long (max ${MAX_FILENAME} characters)`);
  if (name.includes('/') || name.includes('\\')) throw badRequest('filename must not contain path separators');
  if (name.includes('..')) throw badRequest("filename must not contain '..'");
  if (CONTROL.test(name)) throw badRequest('filename must not contain control characters');
  return name;
}

/**
 * A multipart part's filename as stored: only the text after the last / or \, without control
 * characters, at most 255 characters. Empty is a valid stored state.
 */
export function partFilename(raw: string | undefined): string {
  if (!raw) return '';
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  return [...base.replace(CONTROLS, '').trim()].slice(0, MAX_FILENAME).join('');
}

/** Name offered on download: the stored name without quotes and control characters, else clip_<id>.ext. */
export function downloadName(clip: { id: number; filename: string; content_type: string }): string {
  const cleaned = clip.filename.replace(CONTROLS, '').replace(/["]/g, '').trim();
  return cleaned || `clip_${clip.id}${downloadExtension(clip.content_type)}`;
}

/** Content-Disposition: attachment with an ASCII fallback and RFC 5987 UTF-8 name when needed. */
export function contentDisposition(name: string): string {
  if (/^[\u0020-\u007e]*$/.test(name)) return `attachment; filename="${name.replace(/\\/g, '_')}"`;
  const fallback = name.replace(/[^\u0020-\u007e]/g, '_').replace(/\\/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** "<id>_<download name>" with separators replaced: bulk ZIP entries and clipboard temp files (§3.3, §11.2). */
export function idPrefixedName(clip: { id: number; filename: string; content_type: string }): string {
  return `${clip.id}_${downloadName(clip)}`.replace(/[/\\]/g, '_');
}
