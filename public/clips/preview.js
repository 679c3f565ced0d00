// Previews of clip contents. Clip bytes need the key, so an <img src> cannot point at the API:
// each preview is fetched with the Authorization header and shown through a blob: URL (the
// page's CSP allows blob: images and media and nothing from elsewhere). Cards load their
// previews only when scrolled into view, a few at a time; text shows its first bytes only.
import { api } from './api.js';
import { h, fill, fileIcon, kindOf, clipName } from './dom.js';

const THUMB_MAX_BYTES = 8 * 1024 * 1024;
const FULL_MAX_BYTES = 64 * 1024 * 1024;
const CARD_TEXT_BYTES = 1200;
const FULL_TEXT_BYTES = 256 * 1024;
const PARALLEL = 4;

/** Object URLs of one owner (the clip grid, the detail dialog), revoked together. */
export class PreviewUrls {
  constructor() {
    this.urls = new Set();
  }
  make(blob) {
    const url = URL.createObjectURL(blob);
    this.urls.add(url);
    return url;
  }
  release() {
    for (const u of this.urls) URL.revokeObjectURL(u);
    this.urls.clear();
  }
}

let running = 0;
const waiting = [];
function limited(task) {
  return new Promise((resolve, reject) => {
    const start = () => {
      running++;
      task()
        .then(resolve, reject)
        .finally(() => {
          running--;
          waiting.shift()?.();
        });
    };
    if (running < PARALLEL) start();
    else waiting.push(start);
  });
}

async function fetchText(clip, bytes) {
  const res = await api('GET', `/clips/${clip.id}/data`, undefined, { raw: true, range: `bytes=0-${bytes - 1}` });
  const buf = await res.arrayBuffer();
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  return clip.size > bytes ? `${text}…` : text;
}

async function fetchBlob(clip) {
  const res = await api('GET', `/clips/${clip.id}/data`, undefined, { raw: true });
  return res.blob();
}

/** The small preview of a card: thumbnail, first lines of text, or an icon. */
export function cardPreview(clip, urls) {
  const box = h('div', { class: 'preview' }, fileIcon(clip.content_type, clip.filename));
  const kind = kindOf(clip.content_type);
  const wanted = (kind === 'image' && clip.size <= THUMB_MAX_BYTES && clip.size > 0) || (kind === 'text' && clip.size > 0);
  if (!wanted) return box;
  const load = () =>
    limited(async () => {
      if (!box.isConnected) return;
      if (kind === 'image') {
        const img = h('img', { alt: '', decoding: 'async' });
        img.addEventListener('error', () => fill(box, fileIcon(clip.content_type, clip.filename)));
        img.src = urls.make(await fetchBlob(clip));
        fill(box, img);
      } else {
        fill(box, h('pre', { class: 'text-snippet' }, await fetchText(clip, CARD_TEXT_BYTES)));
      }
    }).catch(() => undefined);
  if ('IntersectionObserver' in window) {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        void load();
      }
    }, { rootMargin: '200px' });
    io.observe(box);
  } else void load();
  return box;
}

/** The full preview of the detail dialog. */
export async function fullPreview(clip, urls) {
  const kind = kindOf(clip.content_type);
  const name = clipName(clip);
  const tooLarge = () => h('div', { class: 'preview-none' }, fileIcon(clip.content_type, clip.filename), h('p', {}, 'Too large to preview here; download it to open it.'));
  if (clip.size === 0) return h('div', { class: 'preview-none' }, fileIcon(clip.content_type, clip.filename), h('p', {}, 'This clip is empty.'));
  if (kind === 'text') return h('pre', { class: 'text-full', tabindex: '0', 'aria-label': `Text of ${name}` }, await fetchText(clip, FULL_TEXT_BYTES));
  if (kind === 'file') return h('div', { class: 'preview-none' }, fileIcon(clip.content_type, clip.filename), h('p', {}, 'No preview for this type; download it to open it.'));
  if (clip.size > FULL_MAX_BYTES) return tooLarge();
  const url = urls.make(await fetchBlob(clip));
  if (kind === 'image') {
    const img = h('img', { class: 'image-full', src: url, alt: `Preview of ${name}` });
    img.addEventListener('error', () => img.replaceWith(h('div', { class: 'preview-none' }, fileIcon(clip.content_type, clip.filename), h('p', {}, 'This browser cannot show this image; download it to open it.'))));
    return img;
  }
  if (kind === 'video') return h('video', { class: 'media-full', src: url, controls: true, preload: 'metadata', 'aria-label': `Video ${name}` });
  return h('audio', { class: 'media-full', src: url, controls: true, preload: 'metadata', 'aria-label': `Audio ${name}` });
}
