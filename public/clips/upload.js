// Uploads by drag and drop anywhere on the page, by paste (files, images or text), and by a
// file chooser for keyboard users. Each file gets a row with a progress bar and its result:
// created, duplicate (the existing clip, with a link), or refused with the server's reason.
import { api, session, uploadFile } from './api.js';
import { h, fill, formatSize, clipName } from './dom.js';
import { announce, can, capitalise, clipsChanged, plural } from './shared.js';
import { openClip } from './detail.js';

const PARALLEL = 2;
const panel = () => document.getElementById('uploads');
const list = () => document.getElementById('upload-list');
const overlay = () => document.getElementById('drop-overlay');
let batch = null;

function signedIn() {
  return Boolean(session.key) && !document.getElementById('nav').hidden;
}

/** Opens the system file chooser (the keyboard path to uploading). */
export function chooseFiles() {
  const input = h('input', { type: 'file', multiple: true, hidden: true });
  input.addEventListener('change', () => {
    upload([...input.files]);
    input.remove();
  });
  document.body.append(input);
  input.click();
}

function refuseViewer() {
  announce('This key may only look at clips: uploading needs an editor or admin key.', 'error');
}

/** Queues files; a batch reports once all its files are done. */
export function upload(files) {
  if (!files.length) return;
  if (!can.edit()) return refuseViewer();
  panel().hidden = false;
  batch ??= { pending: 0, created: 0, duplicate: 0, refused: 0 };
  const jobs = files.map((file) => ({ file, row: row(file) }));
  batch.pending += jobs.length;
  list().prepend(...jobs.map((j) => j.row.li));
  announce(`Uploading ${plural(files.length, 'file')}…`);
  queue.push(...jobs);
  pump();
}

const queue = [];
let active = 0;
function pump() {
  while (active < PARALLEL && queue.length) {
    const job = queue.shift();
    active++;
    void send(job).finally(() => {
      active--;
      pump();
    });
  }
}

function row(file) {
  const label = file.name || 'pasted text';
  const progress = h('progress', { max: '1', value: '0', 'aria-label': `Upload progress of ${label}` });
  const result = h('p', { class: 'upload-result' }, 'Waiting…');
  const li = h('li', { class: 'upload-row' }, h('div', { class: 'upload-name' }, h('span', {}, label), h('small', {}, formatSize(file.size))), progress, result);
  return { li, progress, result };
}

async function send({ file, row: r }) {
  r.result.textContent = 'Uploading…';
  const { status, body } = await uploadFile(file, (fraction) => (r.progress.value = fraction));
  r.progress.value = 1;
  if (status === 201) {
    batch.created++;
    r.li.classList.add('ok');
    fill(r.result, 'Created ', openLink(body));
  } else if (status === 200) {
    batch.duplicate++;
    r.li.classList.add('dup');
    fill(r.result, 'Already stored as ', openLink(body), ' (the same bytes; nothing new was kept)');
  } else {
    batch.refused++;
    r.li.classList.add('refused');
    r.progress.hidden = true;
    const reason = body?.error ?? (status === 413 ? 'the file is too large' : `the server answered ${status}`);
    fill(r.result, `Refused: ${capitalise(reason)}`);
  }
  batch.pending--;
  if (batch.pending === 0) {
    const parts = [];
    if (batch.created) parts.push(`${batch.created} created`);
    if (batch.duplicate) parts.push(`${plural(batch.duplicate, 'duplicate')}`);
    if (batch.refused) parts.push(`${batch.refused} refused`);
    announce(`Upload finished: ${parts.join(', ')}.`, batch.refused ? 'error' : 'ok');
    batch = null;
    clipsChanged();
  }
}

function openLink(clip) {
  if (!clip?.id) return 'a clip';
  return h(
    'button',
    {
      type: 'button',
      class: 'link',
      onclick: async () => {
        const tags = await api('GET', '/tags').catch(() => []);
        await openClip(clip.id, tags);
      },
    },
    clipName(clip),
  );
}

function hasFiles(e) {
  return [...(e.dataTransfer?.types ?? [])].includes('Files');
}

/** A name for pasted text: "pasted 2026-11-25 18-45-12.txt". */
function pastedName() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return `pasted ${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}.txt`;
}

function isEditable(el) {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el?.isContentEditable;
}

export function installUploads() {
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    if (!signedIn() || !hasFiles(e)) return;
    depth++;
    overlay().hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay().hidden = true;
  });
  document.addEventListener('dragover', (e) => {
    if (!signedIn() || !hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    depth = 0;
    overlay().hidden = true;
    if (!signedIn()) return;
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    upload(files);
  });
  document.addEventListener('paste', (e) => {
    if (!signedIn()) return;
    const files = [...(e.clipboardData?.files ?? [])];
    if (files.length) {
      e.preventDefault();
      // A pasted screenshot arrives as "image.png"; give each a distinct, dated name.
      upload(files.map((f) => (f.name && f.name !== 'image.png' ? f : new File([f], pastedName().replace(/\.txt$/, `.${f.type.split('/')[1] || 'bin'}`), { type: f.type }))));
      return;
    }
    // Text pasted into a field belongs to the field; anywhere else it becomes a text clip.
    if (isEditable(e.target)) return;
    const text = e.clipboardData?.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    upload([new File([text], pastedName(), { type: 'text/plain' })]);
  });
  document.getElementById('uploads-close').addEventListener('click', () => {
    panel().hidden = true;
    fill(list());
    document.getElementById('main').focus();
  });
}
