// Viewing files (issue 16 item 3) over HTTP: downloads under the original name with RFC 5987
// encoding, the original name kept for form uploads, the viewer's previews of Markdown, JSON,
// CSV and text (bounded and escaped), players for media, the PDF viewer and its first-page
// thumbnail when poppler-utils' pdftoppm is installed.
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { pdf, png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

async function one(name: string, data: Buffer | string, type = 'application/octet-stream', fields: Record<string, string> = {}): Promise<{ ID: number; OriginalName: string; Name: string; ContentType: string }> {
  const r = await upload(lib, [{ name, data: Buffer.from(data), type }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body[0];
}
const viewer = async (id: number) => {
  const res = await lib.fetch(`/resource/viewer.body?id=${id}`);
  expect(res.status).toBe(200);
  return res.text();
};

/** A tenth of a second of 8 kHz 8-bit mono silence. */
function wav(): Buffer {
  const data = Buffer.alloc(800, 128);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(8000, 28);
  head.writeUInt16LE(1, 32);
  head.writeUInt16LE(8, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

function hasPdftoppm(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('downloads', () => {
  it('sends the file as an attachment under its original name, RFC 5987-encoded', async () => {
    const r = await one('Résumé 2024 (final).txt', 'hello\n', 'text/plain');
    const res = await lib.fetch(`/v1/resource/download?id=${r.ID}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello\n');
    const cd = res.headers.get('content-disposition') ?? '';
    expect(cd).toMatch(/^attachment; filename="R_sum_ 2024 \(final\).txt"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(cd)![1];
    expect(decodeURIComponent(encoded)).toBe('Résumé 2024 (final).txt');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps the uploaded file name as the original name when the form leaves it empty', async () => {
    const r = await one('holiday photo.png', await png(20, 10, 3), 'image/png', { Name: '', OriginalName: '', Description: '' });
    expect(r.OriginalName).toBe('holiday photo.png');
    expect(r.Name).toBe('holiday photo.png');
  });

  it('names a file without a usable original name after the resource, with the type extension', async () => {
    const r = await one('x.png', await png(20, 10, 4), 'image/png', { OriginalName: 'https://example.org/path/pic', Name: 'Pic' });
    const cd = (await lib.fetch(`/v1/resource/download?id=${r.ID}`)).headers.get('content-disposition');
    expect(cd).toContain('filename="pic.png"');
  });

  it('serves images inline only when asked, and never HTML or SVG inline', async () => {
    const img = await one('i.png', await png(20, 10, 5), 'image/png');
    const inline = await lib.fetch(`/v1/resource/download?id=${img.ID}&disposition=inline`);
    expect(inline.headers.get('content-disposition')).toMatch(/^inline;/);
    const html = await one('page.html', '<script>alert(1)</script>', 'text/html');
    const att = await lib.fetch(`/v1/resource/download?id=${html.ID}&disposition=inline`);
    expect(att.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(att.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('answers 404 for an unknown resource and 400 for a bad id', async () => {
    expect((await lib.fetch('/v1/resource/download?id=999999', { headers: { accept: 'application/json' } })).status).toBe(404);
    expect((await lib.fetch('/v1/resource/download?id=abc', { headers: { accept: 'application/json' } })).status).toBe(400);
  });
});

describe('viewer previews', () => {
  it('renders Markdown sanitised, with task lists and safe links', async () => {
    const r = await one('notes.md', '# Title\n\n- [x] done\n- [ ] open\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1)) [good](https://example.org)', 'text/markdown');
    const html = await viewer(r.ID);
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).toContain('class="task-list"');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.org"');
  });

  it('pretty-prints JSON and escapes it', async () => {
    const r = await one('data.json', '{"a":"</pre><img src=x onerror=alert(1)>"}', 'application/json');
    const html = await viewer(r.ID);
    expect(html).toContain('{\n  &#34;a&#34;: &#34;&#60;/pre&#62;&#60;img src=x onerror=alert(1)&#62;&#34;\n}');
    expect(html).not.toContain('<img src=x');
  });

  it('shows CSV as a table with escaped cells', async () => {
    const r = await one('t.csv', 'name,note\n"Smith, J","<b>bold</b>"\n', 'text/csv');
    const html = await viewer(r.ID);
    expect(html).toContain('<th scope="col">name</th>');
    expect(html).toContain('<td>Smith, J</td>');
    expect(html).toContain('<td>&#60;b&#62;bold&#60;/b&#62;</td>');
  });

  it('bounds a large text file and says so', async () => {
    const r = await one('big.log', 'line\n'.repeat(100_000), 'text/plain');
    const html = await viewer(r.ID);
    expect(html).toContain('Showing the first 256 KB');
    expect(html.length).toBeLessThan(300_000);
  });

  it('escapes a hostile file name everywhere it is shown', async () => {
    const r = await one('<img src=x onerror=alert(1)>.txt', 'hi', 'text/plain');
    for (const path of [`/resource/viewer.body?id=${r.ID}`, `/resource?id=${r.ID}`, '/resources', '/resources/details']) {
      const html = await (await lib.fetch(path)).text();
      expect(html, path).not.toContain('<img src=x onerror');
    }
  });

  it('gives media players, a zoomable image and the PDF viewer', async () => {
    const img = await one('p.png', await png(30, 20, 9), 'image/png');
    expect(await viewer(img.ID)).toContain('class="viewer-image"');
    const audio = await one('a.wav', wav(), 'audio/wav');
    expect(await viewer(audio.ID)).toMatch(/<audio class="viewer-media" src="[^"]+" controls/);
    const doc = await one('doc.pdf', pdf(), 'application/pdf');
    const html = await viewer(doc.ID);
    expect(html).toContain(`<iframe class="viewer-pdf" src="/v1/resource/download?id=${doc.ID}&#38;disposition=inline"`);
    const inline = await lib.fetch(`/v1/resource/download?id=${doc.ID}&disposition=inline`);
    expect(inline.headers.get('content-type')).toBe('application/pdf');
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; filename="doc.pdf"/);
    expect(inline.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('the resource page shows the viewer and a download under the original name', async () => {
    const r = await one('readme.md', '**hi**', 'text/markdown');
    const html = await (await lib.fetch(`/resource?id=${r.ID}`)).text();
    expect(html).toContain('data-testid="file-viewer"');
    expect(html).toContain('<strong>hi</strong>');
    expect(html).toContain('download="readme.md"');
  });
});

describe('lightbox template', () => {
  it('gives the category\'s CustomLightbox with shortcodes expanded, falling back to CustomSidebar', async () => {
    const lightbox = await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: 'Posters', CustomLightbox: '<p class="lb">[property path="Name"]</p>', CustomSidebar: '<p>not this</p>' });
    const sidebar = await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: 'Flyers', CustomSidebar: '<p class="sb">side</p>' });
    const a = await one('poster <b>.png', await png(20, 20, 5), 'image/png', { ResourceCategoryId: String(lightbox.body.ID) });
    const b = await one('flyer.png', await png(20, 20, 6), 'image/png', { ResourceCategoryId: String(sidebar.body.ID) });
    const c = await one('plain.png', await png(20, 20, 7), 'image/png');
    const body = async (id: number) => {
      const res = await lib.fetch(`/resource/lightbox.body?id=${id}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const own = await body(a.ID);
    expect(own).toContain('class="custom-slot custom-lightbox"');
    expect(own).toContain('<p class="lb">poster &#60;b&#62;.png</p>');
    expect(own).not.toContain('not this');
    expect(await body(b.ID)).toContain('<p class="sb">side</p>');
    const none = await body(c.ID);
    expect(none).not.toContain('custom-slot');
    expect(none).toContain('No lightbox template');
    expect((await lib.fetch('/resource/lightbox.body?id=99999')).status).toBe(404);
  });
});

describe('PDF thumbnails', () => {
  const present = hasPdftoppm();
  if (!present) console.warn('PDF thumbnail test skipped: pdftoppm (poppler-utils) is not installed');
  it.skipIf(!present)('renders the first page with pdftoppm', async () => {
    const doc = await one('page.pdf', pdf('thumb'), 'application/pdf');
    const res = await lib.fetch(`/v1/resource/preview?ID=${doc.ID}&Height=100`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', height: 100 });
  });
  it.skipIf(present)('falls back to the generic icon without pdftoppm', async () => {
    const doc = await one('page2.pdf', pdf('none'), 'application/pdf');
    const res = await lib.fetch(`/v1/resource/preview?ID=${doc.ID}`, { redirect: 'manual' });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/public/placeholders/file.jpg');
  });
});
