// Drop and paste upload (companion §12.5, issue 16 item 4). On a page carrying
// <form id="upload-target" data-owner-id data-note-id data-group-id>, files dropped anywhere on
// the page, pasted (files, images, or text and HTML outside a text field) or chosen in its file
// field are posted one request per file to POST /v1/resource, so each gets its
// own progress bar and its own result: created (a link), duplicate (a link to the resource
// that already holds those bytes) or refused (the server's reason).
(() => {
  'use strict';

  const target = document.getElementById('upload-target');
  if (!target) return;
  const { ownerId, noteId, groupId } = target.dataset;
  let panel = null;
  let list = null;
  let overlay = null;
  let dragDepth = 0;
  let created = 0;

  const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const extOf = (type) => ({ 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg', 'text/plain': 'txt', 'text/html': 'html' })[type] || 'bin';

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

  function ensurePanel() {
    if (panel) return;
    panel = el('section', 'upload-panel');
    panel.setAttribute('aria-label', 'Uploads');
    panel.dataset.testid = 'upload-panel';
    const head = el('h2', '', 'Uploads');
    const close = el('button', 'secondary', 'Close');
    close.type = 'button';
    close.addEventListener('click', () => {
      panel.remove();
      panel = null;
      if (created > 0) window.location.reload();
    });
    head.append(close);
    list = el('ul', 'upload-list');
    panel.append(head, list, el('p', 'upload-hint', 'Closing this panel reloads the page to show the new files.'));
    document.body.append(panel);
  }

  function result(row, kind, ...parts) {
    const status = row.querySelector('.upload-result');
    status.className = `upload-result ${kind}`;
    status.replaceChildren(...parts);
    row.querySelector('progress').remove();
    row.dataset.result = kind;
  }

  function send(file) {
    ensurePanel();
    const row = el('li', 'upload-item');
    row.dataset.testid = 'upload-item';
    const bar = el('progress');
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute('aria-label', `Uploading ${file.name}`);
    const status = el('span', 'upload-result', 'Waiting…');
    status.setAttribute('role', 'status');
    row.append(el('span', 'upload-name', file.name), bar, status);
    list.append(row);

    const form = new FormData();
    form.append('resource', file, file.name);
    if (ownerId) form.append('OwnerId', ownerId);
    if (noteId) form.append('Notes', noteId);
    if (groupId) form.append('Groups', groupId);
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
        result(row, 'created', document.createTextNode('Created: '), link(`/resource?id=${r.ID}`, r.Name || file.name));
        return;
      }
      const detail = body && Array.isArray(body.details) ? body.details[0] : null;
      if (xhr.status === 409 && detail && detail.existingResourceId) {
        result(row, 'duplicate', document.createTextNode('Already in the library: '), link(`/resource?id=${detail.existingResourceId}`, `resource ${detail.existingResourceId}`));
        return;
      }
      const reason = (detail && detail.error) || (body && body.error) || `the server answered ${xhr.status}`;
      result(row, 'refused', document.createTextNode(`Refused: ${reason}`));
    });
    xhr.addEventListener('error', () => result(row, 'refused', document.createTextNode('Refused: the connection failed.')));
    status.textContent = 'Uploading…';
    xhr.send(form);
  }

  function sendAll(files) {
    for (const f of files) send(f);
  }

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
    if (document.getElementById('thumbnail-form') && [...data.files].some((f) => f.type.startsWith('image/'))) return;
    const files = [...data.files].map((f) => named(f, f.type.startsWith('image/') ? 'image' : 'file'));
    if (files.length > 0) {
      ev.preventDefault();
      sendAll(files);
      return;
    }
    // Text goes where the person is typing; elsewhere on the page it becomes a file.
    if (inTextField(ev.target)) return;
    const html = data.getData('text/html');
    const text = data.getData('text/plain');
    if (html) {
      ev.preventDefault();
      sendAll([new File([html], `pasted-html-${stamp()}.html`, { type: 'text/html' })]);
    } else if (text) {
      ev.preventDefault();
      sendAll([new File([text], `pasted-text-${stamp()}.txt`, { type: 'text/plain' })]);
    }
  });

  const hasFiles = (ev) => ev.dataTransfer && [...ev.dataTransfer.types].includes('Files');

  document.addEventListener('dragenter', (ev) => {
    if (!hasFiles(ev)) return;
    dragDepth++;
    if (!overlay) {
      overlay = el('div', 'drop-overlay', 'Drop files to upload them here');
      overlay.setAttribute('aria-hidden', 'true');
      document.body.append(overlay);
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
    sendAll([...ev.dataTransfer.files]);
  });

  // The keyboard way to the same uploads: choosing files starts them at once, so the plain
  // form's Upload button (for pages without script) is not needed.
  const picker = target.querySelector('input[type="file"]');
  target.querySelector('.upload-submit')?.setAttribute('hidden', '');
  target.addEventListener('submit', (ev) => ev.preventDefault());
  if (picker) {
    picker.addEventListener('change', () => {
      sendAll([...picker.files]);
      picker.value = '';
    });
  }
})();
