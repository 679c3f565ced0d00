// Drop and paste upload (companion §12.5, issue 16 item 4). On a page carrying
// <form id="upload-target"> (src/library/ui/upload.tsx), files dropped anywhere on the page,
// pasted (files, images, or text and HTML outside a text field) or chosen in its file field
// first open its preview dialog: each file with a thumbnail or its type and size, removable,
// more pastes and drops joining the batch, and optional tags, resource category and series for
// all of them. Upload then posts one request per file to POST /v1/resource with the form's
// fields, so each gets its own progress bar and result: created (a link), duplicate (a link to
// the resource that already holds those bytes) or refused (the server's reason). When every
// file was created the dialog closes and the page reloads to show them; otherwise the results
// stay until the dialog is closed. The dialog is modal (focus stays inside, Escape closes it).
(() => {
  'use strict';

  const target = document.getElementById('upload-target');
  const dialog = document.getElementById('upload-dialog');
  if (!target || !dialog) return;
  const part = (sel) => dialog.querySelector(sel);
  const preview = part('.upload-preview');
  const list = part('.upload-list');
  const summary = part('.upload-summary');
  const startButton = part('.upload-start');
  const cancelButton = part('.upload-cancel');
  let pending = []; // { file, url } waiting for Upload
  let sending = false;
  let created = 0;
  let overlay = null;
  let dragDepth = 0;

  const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const extOf = (type) => ({ 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg', 'text/plain': 'txt', 'text/html': 'html' })[type] || 'bin';
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const size = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : plural(n, 'byte'));

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function link(href, text) {
    const a = el('a', '', text);
    a.href = href;
    return a;
  }

  function renderPreview() {
    const rows = pending.map((p, i) => {
      const row = el('li', 'upload-preview-item');
      row.dataset.testid = 'upload-preview-item';
      let thumb;
      if (p.url) {
        thumb = el('img', 'upload-thumb');
        thumb.src = p.url;
        thumb.alt = '';
      } else {
        thumb = el('span', 'upload-thumb upload-type', (p.file.name.match(/\.([A-Za-z0-9]{1,5})$/)?.[1] || 'file').toUpperCase());
        thumb.setAttribute('aria-hidden', 'true');
      }
      const remove = el('button', 'secondary upload-remove', 'Remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove ${p.file.name}`);
      remove.addEventListener('click', () => {
        if (p.url) URL.revokeObjectURL(p.url);
        pending.splice(pending.indexOf(p), 1);
        renderPreview();
        const next = preview.querySelectorAll('.upload-remove')[Math.min(i, pending.length - 1)];
        (next || startButton).focus();
        summary.textContent = `${p.file.name} removed.`;
      });
      row.append(thumb, el('span', 'upload-name', p.file.name), el('span', 'upload-size', `${p.file.type || 'unknown type'} · ${size(p.file.size)}`), remove);
      return row;
    });
    preview.replaceChildren(...rows);
    preview.hidden = pending.length === 0;
    part('#upload-dialog-title').textContent = pending.length ? `Upload ${plural(pending.length, 'file')}` : 'Uploads';
    startButton.textContent = pending.length > 1 ? `Upload ${pending.length} files` : 'Upload';
    startButton.disabled = pending.length === 0 || sending;
    // With nothing waiting the dialog is a results list: no options, no Upload button.
    startButton.hidden = pending.length === 0;
    part('.upload-options').hidden = pending.length === 0;
  }

  /** Files join the batch in the dialog; nothing is sent before Upload. */
  function queue(files) {
    if (files.length === 0) return;
    for (const file of files) pending.push({ file, url: file.type.startsWith('image/') && file.type !== 'image/svg+xml' ? URL.createObjectURL(file) : null });
    renderPreview();
    if (!dialog.open) {
      dialog.showModal();
      startButton.focus();
    }
    summary.textContent = `${plural(pending.length, 'file')} ready to upload.`;
  }

  function result(row, kind, ...parts) {
    const status = row.querySelector('.upload-result');
    status.className = `upload-result ${kind}`;
    status.replaceChildren(...parts);
    row.querySelector('progress')?.remove();
    row.dataset.result = kind;
    return kind;
  }

  /** Posts one file with the form's fields (owner, note, group, tags, category, series). */
  function send(file) {
    const row = el('li', 'upload-item');
    row.dataset.testid = 'upload-item';
    const bar = el('progress');
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute('aria-label', `Uploading ${file.name}`);
    const status = el('span', 'upload-result', 'Uploading…');
    row.append(el('span', 'upload-name', file.name), bar, status);
    list.append(row);

    const form = new FormData(target);
    form.delete('resource');
    form.append('resource', file, file.name);
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/v1/resource');
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.addEventListener('progress', (ev) => {
        if (!ev.lengthComputable) return;
        bar.value = Math.round((ev.loaded / ev.total) * 100);
        status.textContent = `${bar.value} %`;
      });
      xhr.addEventListener('load', () => {
        let body = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = null;
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          const r = Array.isArray(body) ? body[0] : body;
          created++;
          resolve(result(row, 'created', document.createTextNode('Created: '), link(`/resource?id=${r.ID}`, r.Name || file.name)));
          return;
        }
        const detail = body && Array.isArray(body.details) ? body.details[0] : null;
        if (xhr.status === 409 && detail && detail.existingResourceId) {
          resolve(result(row, 'duplicate', document.createTextNode('Already in the library: '), link(`/resource?id=${detail.existingResourceId}`, `resource ${detail.existingResourceId}`)));
          return;
        }
        const reason = (detail && detail.error) || (body && body.error) || `the server answered ${xhr.status}`;
        resolve(result(row, 'refused', document.createTextNode(`Refused: ${reason}`)));
      });
      xhr.addEventListener('error', () => resolve(result(row, 'refused', document.createTextNode('Refused: the connection failed.'))));
      xhr.send(form);
    });
  }

  async function start() {
    if (sending || pending.length === 0) return;
    const batch = pending;
    pending = [];
    sending = true;
    renderPreview();
    summary.textContent = `Uploading ${plural(batch.length, 'file')}…`;
    const kinds = await Promise.all(batch.map((p) => send(p.file)));
    for (const p of batch) if (p.url) URL.revokeObjectURL(p.url);
    sending = false;
    renderPreview();
    const all = list.querySelectorAll('.upload-item');
    // Files that arrived while these were sending keep the dialog open for their own Upload.
    if (pending.length === 0 && [...all].every((row) => row.dataset.result === 'created')) {
      summary.textContent = `${plural(kinds.length, 'file')} uploaded; reloading the page.`;
      dialog.close();
      return;
    }
    const count = (k) => kinds.filter((x) => x === k).length;
    summary.textContent = `${count('created')} created, ${count('duplicate')} already in the library, ${count('refused')} refused.`;
    cancelButton.textContent = 'Close';
    cancelButton.focus();
  }

  startButton.addEventListener('click', start);
  cancelButton.addEventListener('click', () => dialog.close());
  // Enter in a text field of the dialog uploads (the pickers keep their own Enter).
  target.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (dialog.open) start();
  });
  // A modal dialog already makes the page behind it inert; Tab past either end wraps round
  // instead of leaving for the browser's own controls.
  dialog.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Tab') return;
    const stops = [...dialog.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')].filter((n) => !n.disabled && n.tabIndex >= 0 && n.getClientRects().length > 0 && n.type !== 'hidden');
    if (stops.length === 0) return;
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (ev.shiftKey && document.activeElement === first) {
      ev.preventDefault();
      last.focus();
    } else if (!ev.shiftKey && document.activeElement === last) {
      ev.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener('cancel', (ev) => {
    if (sending) ev.preventDefault(); // the results of running uploads are still to come
  });
  dialog.addEventListener('close', () => {
    for (const p of pending) if (p.url) URL.revokeObjectURL(p.url);
    pending = [];
    list.replaceChildren();
    summary.textContent = '';
    cancelButton.textContent = 'Cancel';
    renderPreview();
    if (created > 0) window.location.reload();
  });

  // Chrome names every pasted screenshot "image.png": such names become pasted-image-<time>.
  function named(file, kind) {
    if (file.name && !/^image\.(png|jpe?g|gif|webp)$/i.test(file.name)) return file;
    return new File([file], `pasted-${kind}-${stamp()}.${extOf(file.type)}`, { type: file.type });
  }

  const inTextField = (node) => node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement || (node instanceof HTMLElement && node.isContentEditable);

  document.addEventListener('paste', (ev) => {
    const data = ev.clipboardData;
    if (!data) return;
    // On a resource page a pasted image becomes its thumbnail (public/paste-thumbnail.js).
    if (!dialog.open && document.getElementById('thumbnail-form') && [...data.files].some((f) => f.type.startsWith('image/'))) return;
    const files = [...data.files].map((f) => named(f, f.type.startsWith('image/') ? 'image' : 'file'));
    if (files.length > 0) {
      ev.preventDefault();
      queue(files);
      return;
    }
    // Text goes where the person is typing; elsewhere on the page it becomes a file.
    if (inTextField(ev.target)) return;
    const html = data.getData('text/html');
    const text = data.getData('text/plain');
    if (html) {
      ev.preventDefault();
      queue([new File([html], `pasted-html-${stamp()}.html`, { type: 'text/html' })]);
    } else if (text) {
      ev.preventDefault();
      queue([new File([text], `pasted-text-${stamp()}.txt`, { type: 'text/plain' })]);
    }
  });

  const hasFiles = (ev) => ev.dataTransfer && [...ev.dataTransfer.types].includes('Files');

  document.addEventListener('dragenter', (ev) => {
    if (!hasFiles(ev)) return;
    dragDepth++;
    if (!overlay) {
      overlay = el('div', 'drop-overlay', 'Drop files to upload them here');
      overlay.setAttribute('aria-hidden', 'true');
      // Over an open modal dialog the overlay has to be inside it to be seen.
      (dialog.open ? dialog : document.body).append(overlay);
    }
  });
  document.addEventListener('dragleave', (ev) => {
    if (!hasFiles(ev)) return;
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0 && overlay) {
      overlay.remove();
      overlay = null;
    }
  });
  document.addEventListener('dragover', (ev) => {
    if (hasFiles(ev)) ev.preventDefault();
  });
  document.addEventListener('drop', (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    dragDepth = 0;
    overlay?.remove();
    overlay = null;
    queue([...ev.dataTransfer.files]);
  });

  // The keyboard way to the same dialog: choosing files opens it, so the plain form's Upload
  // button (for pages without script) is not needed.
  const picker = target.querySelector('input[type="file"]');
  target.querySelector('.upload-submit')?.setAttribute('hidden', '');
  if (picker) {
    picker.addEventListener('change', () => {
      queue([...picker.files]);
      picker.value = '';
    });
  }
  renderPreview();
})();
