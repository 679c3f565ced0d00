// The public page of a shared note (companion §6.8): name, description (hidden when a text
// block mirrors it), every block read-only in its shared form, the note type's CustomHeader and
// CustomCSS when the type opted in, and a "Shared via" footer. Nothing else of the library.
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { BlockList, type RenderContext } from '../blocks/render.js';
import type { BlockRecord } from '../blocks/records.js';
import { Markdown } from '../ui/markdown.js';
import { styleText } from '../ui/slots.js';

export interface SharePageData {
  name: string;
  description: string;
  blocks: BlockRecord[];
  /** The note type's header, already rendered in restricted mode, and its CSS. */
  template: { header: SafeHtml; css: string } | null;
  ctx: RenderContext;
}

export function sharePage(d: SharePageData): string {
  const mirrored = d.blocks.some((b) => b.type === 'text');
  const page: SafeHtml = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{d.name}</title>
        <link rel="stylesheet" href="/public/index.css" />
        <link rel="stylesheet" href="/public/notes.css" />
        <link rel="stylesheet" href="/public/viewer.css" />
        {d.template && d.template.css.trim() !== '' ? <style>{styleText(d.template.css)}</style> : null}
      </head>
      <body class="shared-note">
        <main id="main-content" class="share-main">
          {d.template && d.template.header.html.trim() !== '' ? <div class="custom-header">{d.template.header}</div> : null}
          <article class="note-body">
            <h1>{d.name}</h1>
            {!mirrored && d.description !== '' ? <Markdown class="block-text note-description" text={d.description} mode="share" /> : null}
            <BlockList blocks={d.blocks} ctx={d.ctx} />
          </article>
          <footer class="share-footer">Shared via Stacks</footer>
        </main>
        <script src="/public/note-blocks.js"></script>
      </body>
    </html>
  );
  return `<!doctype html>\n${page.html}`;
}

export function notFoundPage(): string {
  return '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1></body></html>';
}
