// What a queued download carries: the parameters of POST /v1/resource/remote, checked for
// type at submission so a malformed request is a 400 and never a job that fails later.
import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import { remoteFields } from '../resources/fields.js';

export const RemoteInput = Type.Object(remoteFields);
export type RemoteParams = Static<typeof RemoteInput>;

/**
 * One job's payload: the parameters with exactly one URL, and the plugin that queued it, whose
 * egress policy every attempt runs under.
 */
export type DownloadPayload = Omit<RemoteParams, 'URL' | 'background'> & { url: string; plugin?: string };

/** Splits URL on newlines into one payload per valid http(s) URL (400 when none). */
export function downloadPayloads(params: RemoteParams): DownloadPayload[] {
  const lines = (params.URL ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) throw badRequest('URL is required');
  const valid = lines.filter((l) => {
    try {
      const u = new URL(l);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  });
  if (valid.length === 0) throw badRequest('URL holds no valid http or https URL');
  const { URL: _url, background: _background, ...rest } = params;
  return valid.map((url) => ({ ...rest, url }));
}

/** The name a download gets: Name, else FileName, else the URL's last path segment. */
export function downloadName(p: DownloadPayload): string {
  if (p.Name?.trim()) return p.Name.trim();
  if (p.FileName?.trim()) return p.FileName.trim();
  try {
    const segment = decodeURIComponent(new URL(p.url).pathname.split('/').filter(Boolean).pop() ?? '');
    return segment || new URL(p.url).hostname;
  } catch {
    return p.url;
  }
}
