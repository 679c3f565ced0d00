// Viewing a resource's file (issue 16 item 3): the download under the original file name, and
// the viewer shown on the resource page and in the lightbox (public/lightbox.js loads its
// `.body` form): images with zoom, video and audio players, PDFs in the browser's own viewer,
// and bounded, escaped previews of Markdown, JSON, CSV and plain text.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { basename } from 'node:path';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { dispositionHeader, openForServing, sendFile } from '../../core/storage/serve.js';
import { bareMime, extensionFor } from '../../core/storage/sniff.js';
import { seenBy, type LibraryRoutes } from '../http/routes.js';
import { Markdown } from '../ui/markdown.js';
import type { ResourceContext } from './context.js';
import type { ResourceRow } from './records.js';
import type { ResourceService } from './service.js';
import { Filesystems } from './storage.js';
import { CSV_PREVIEW_ROWS, readTextPreview, textKindOf, TEXT_PREVIEW_BYTES, type TextPreview } from './text-preview.js';

/**
 * The name a download is saved under: the original file name (its last path segment when it is
 * a URL or a path), else the resource name, with the stored type's extension when it has none.
 */
export function downloadName(row: Pick<ResourceRow, 'original_name' | 'name' | 'content_type' | 'hash'>): string {
  // eslint-disable-next-line no-control-regex -- control characters never belong in a file name
  const strip = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  let name = strip(row.original_name ?? '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    try {
      name = decodeURIComponent(new URL(name).pathname.split('/').pop() ?? '');
    } catch {
      name = '';
    }
  }
  name = strip(basename(name.replace(/\\/g, '/')));
  if (name === '' || name === '.' || name === '..') name = strip(row.name ?? '') || row.hash.slice(0, 12);
  name = name.replace(/[/\\]/g, '_');
  if (!/\.[A-Za-z0-9]{1,8}$/.test(name)) name += extensionFor(row.content_type);
  return name;
}

export type ViewerKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'none';

export function viewerKindOf(row: Pick<ResourceRow, 'content_type' | 'original_name' | 'name'>): ViewerKind {
  const mime = bareMime(row.content_type);
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime === 'application/pdf') return 'pdf';
  return textKindOf(mime, row.original_name || row.name) ? 'text' : 'none';
}

/** Types a browser may show inline from this origin; anything else is always an attachment. */
const INLINE = (mime: string) => mime === 'application/pdf' || ((mime.startsWith('image/') || mime.startsWith('video/') || mime.startsWith('audio/')) && mime !== 'image/svg+xml');

export function registerDownloadRoute(routes: LibraryRoutes, ctx: ResourceContext, resources: ResourceService): void {
  routes.add({
    method: 'GET',
    path: '/v1/resource/download',
    tag: 'resources',
    summary: "The resource's current file under its original name (attachment; disposition=inline is honoured for images, audio, video and PDF)",
    needs: 'read',
    input: Type.Object({ id: Type.Integer(), disposition: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      const row = await resources.require(seenBy(req), input.id);
      const mime = bareMime(row.content_type) || 'application/octet-stream';
      const inline = input.disposition === 'inline' && INLINE(mime);
      // The sandbox keeps an uploaded file from running script here; the PDF viewer needs a
      // plain document (it is refused in a sandboxed one), and runs PDF script in its own sandbox.
      const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, max-age=3600' };
      if (mime === 'application/pdf' && inline) headers['X-Frame-Options'] = 'SAMEORIGIN';
      else headers['Content-Security-Policy'] = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";
      const file = await openForServing(ctx.fs.get(row.storage_location).root, row.location, { allowPrivate: true });
      return sendFile(req, reply, file, {
        type: inline ? mime : row.content_type || 'application/octet-stream',
        disposition: dispositionHeader(inline ? 'inline' : 'attachment', downloadName(row)),
        headers,
      });
    },
  });
}

export interface ViewerData {
  ID: number;
  Name: string;
  ContentType: string;
  Width: number;
  Height: number;
  kind: ViewerKind;
  url: string;
  downloadUrl: string;
  downloadName: string;
  preview: TextPreview | null;
}

export async function viewerData(ctx: ResourceContext, row: ResourceRow): Promise<ViewerData> {
  const kind = viewerKindOf(row);
  let preview: TextPreview | null = null;
  if (kind === 'text') {
    const textKind = textKindOf(row.content_type, row.original_name || row.name) ?? 'text';
    preview = await readTextPreview(ctx.fs.get(row.storage_location).resolve(row.location), textKind).catch(() => null);
  }
  return {
    ID: row.id,
    Name: row.name,
    ContentType: row.content_type,
    Width: row.width,
    Height: row.height,
    kind: kind === 'text' && !preview ? 'none' : kind,
    url: Filesystems.url(row.storage_location, row.location),
    downloadUrl: `/v1/resource/download?id=${row.id}`,
    downloadName: downloadName(row),
    preview,
  };
}

function TextView(props: { p: TextPreview }): SafeHtml {
  const { p } = props;
  const cut = p.truncated ? <p class="viewer-note">Showing the first {Math.round(TEXT_PREVIEW_BYTES / 1024)} KB; download the file for the rest.</p> : null;
  if (p.kind === 'markdown') return <div class="viewer-text">{cut}<Markdown class="viewer-markdown" text={p.text} /></div>;
  if (p.kind === 'csv' && p.rows && p.rows.length > 0) {
    const [head, ...rows] = p.rows;
    return (
      <div class="viewer-text viewer-csv">
        {cut}
        {p.rows.length >= CSV_PREVIEW_ROWS ? <p class="viewer-note">Showing the first {CSV_PREVIEW_ROWS} rows.</p> : null}
        <table class="list">
          <thead>
            <tr>{head.map((c) => <th scope="col">{c}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>{head.map((_, i) => <td>{r[i] ?? ''}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <div class="viewer-text">
      {cut}
      <pre class={`viewer-code viewer-${p.kind}`} tabindex="0">{p.text}</pre>
    </div>
  );
}

/** The file itself, as the browser can best show it. */
export function FileViewer(props: { v: ViewerData }): SafeHtml {
  const v = props.v;
  const body = (() => {
    switch (v.kind) {
      case 'image':
        return (
          <div class="viewer-stage" data-zoom="fit">
            <img class="viewer-image" src={v.url} alt={v.Name} width={v.Width || undefined} height={v.Height || undefined} />
          </div>
        );
      case 'video':
        return <video class="viewer-media" src={v.url} controls preload="metadata" poster={`/v1/resource/preview?ID=${v.ID}`}></video>;
      case 'audio':
        return <audio class="viewer-media" src={v.url} controls preload="metadata"></audio>;
      case 'pdf':
        return <iframe class="viewer-pdf" src={`${v.downloadUrl}&disposition=inline`} title={`PDF: ${v.Name}`}></iframe>;
      case 'text':
        return v.preview ? <TextView p={v.preview} /> : null;
      default:
        return (
          <div class="viewer-none">
            <img src={`/v1/resource/preview?ID=${v.ID}&Height=200`} alt="" height={200} />
            <p>This file type ({v.ContentType || 'unknown'}) cannot be shown here.</p>
          </div>
        );
    }
  })();
  return (
    <div class={`viewer viewer-kind-${v.kind}`} data-testid="file-viewer" data-resource-id={v.ID}>
      {body}
      <p class="viewer-actions">
        <a class="button" href={v.downloadUrl} download={v.downloadName}>
          Download {v.downloadName}
        </a>{' '}
        {v.kind === 'pdf' ? (
          <a class="button secondary" href={`${v.downloadUrl}&disposition=inline`} target="_blank" rel="noopener">
            Open in the browser's PDF viewer
          </a>
        ) : null}
      </p>
    </div>
  );
}

const IdInput = Type.Object({ id: Type.Integer() });

/** `/resource/viewer?id=`: the viewer alone; the lightbox loads `/resource/viewer.body?id=`. */
export function registerViewerPage(app: FastifyInstance, layout: Layout, ctx: ResourceContext, resources: ResourceService): void {
  registerPage(app, layout, {
    path: '/resource/viewer',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const row = await resources.require(seenBy(req), id);
      return { pageTitle: row.name, viewer: await viewerData(ctx, row) };
    },
    view: (c) => <FileViewer v={c.viewer} />,
  });
}
