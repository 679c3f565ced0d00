// What a queued download carries: the parameters of POST /v1/resource/remote, checked for
// type at submission so a malformed request is a 400 and never a job that fails later.
import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';

export const RemoteFields = {
  URL: Type.Optional(Type.String({ description: 'one or more URLs, one per line' })),
  FileName: Type.Optional(Type.String()),
  Name: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
  OwnerId: Type.Optional(Type.Integer()),
  Groups: Type.Optional(Type.Array(Type.Integer())),
  Tags: Type.Optional(Type.Array(Type.Integer())),
  Notes: Type.Optional(Type.Array(Type.Integer())),
  Meta: Type.Optional(Type.String({ description: 'JSON object' })),
  Category: Type.Optional(Type.String()),
  ContentCategory: Type.Optional(Type.String()),
  ResourceCategoryId: Type.Optional(Type.Integer()),
  SeriesSlug: Type.Optional(Type.String()),
  GroupCategoryName: Type.Optional(Type.String({ description: 'auto-created owner group: its category' })),
  GroupName: Type.Optional(Type.String({ description: 'auto-created owner group: its name' })),
  GroupMeta: Type.Optional(Type.String({ description: 'auto-created owner group: its meta (JSON object)' })),
  PathName: Type.Optional(Type.String({ description: 'storage key of an -alt-fs filesystem' })),
};
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is needed
const RemoteInput = Type.Object(RemoteFields);
export type RemoteParams = Static<typeof RemoteInput>;

/** One job's payload: the parameters with exactly one URL. */
export type DownloadPayload = Omit<RemoteParams, 'URL'> & { url: string };

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
  const { URL: _url, ...rest } = params;
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
