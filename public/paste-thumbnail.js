// Paste an image on a resource page to make it the resource's thumbnail (companion §12.5: on a
// resource page a pasted image sets the custom thumbnail instead of uploading a new resource).
// It posts the image as the thumbnail form would, then swaps the preview images in place.
(() => {
  'use strict';

  const form = document.getElementById('thumbnail-form');
  if (!form) return;
  const status = form.querySelector('[role="status"]');
  const say = (text) => {
    status.textContent = text;
  };

  async function setThumbnail(file) {
    const body = new FormData();
    body.append('thumbnail', file, file.name || 'pasted-image.png');
    say('Setting the pasted image as the thumbnail…');
    const res = await fetch(form.action, { method: 'POST', headers: { accept: 'application/json' }, body });
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      say(`The thumbnail was not changed: ${data.error || `the server answered ${res.status}`}.`);
      return;
    }
    const stamp = Date.now();
    for (const img of document.querySelectorAll('img[src*="/v1/resource/preview?"]')) {
      const url = new URL(img.getAttribute('src'), location.href);
      url.searchParams.set('v', String(stamp));
      img.src = url.pathname + url.search;
    }
    say('Thumbnail replaced with the pasted image.');
  }

  document.addEventListener('paste', (ev) => {
    const t = ev.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || (t instanceof HTMLElement && t.isContentEditable)) return;
    const image = [...(ev.clipboardData?.files || [])].find((f) => f.type.startsWith('image/'));
    // With the upload dialog open, the image joins its batch instead (public/upload.js).
    if (!image || document.getElementById('upload-dialog')?.open) return;
    ev.preventDefault();
    setThumbnail(image).catch((e) => say(`The thumbnail was not changed: ${e.message}.`));
  });
})();
