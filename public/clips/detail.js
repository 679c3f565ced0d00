// One clip in a modal dialog: the full preview, its facts, tags, rename, archive, download and
// delete. <dialog> keeps focus inside and closes with Escape; focus returns to the opener.
import { api } from './api.js';
import { h, fill, field, formatSize, timeAgo, colorDot, clipName, saveBlob, dispositionName } from './dom.js';
import { PreviewUrls, fullPreview } from './preview.js';
import { announce, announceError, can, clipsChanged } from './shared.js';
import { tagOptions } from './tags.js';
import { clipActions } from './plugins.js';

export async function downloadClip(clip) {
  const res = await api('GET', `/clips/${clip.id}/data`, undefined, { raw: true });
  saveBlob(await res.blob(), dispositionName(res.headers.get('Content-Disposition'), clip.filename || `clip_${clip.id}`));
}

export async function openClip(id, tags) {
  const opener = document.activeElement;
  const urls = new PreviewUrls();
  const title = h('h2', { id: 'clip-title', tabindex: '-1' });
  const body = h('div', { class: 'dialog-body' });
  const dialog = h(
    'dialog',
    { class: 'clip-dialog', 'aria-labelledby': 'clip-title' },
    h('div', { class: 'dialog-head' }, title, h('button', { type: 'button', class: 'secondary', onclick: () => dialog.close() }, 'Close')),
    body,
  );
  dialog.addEventListener('close', () => {
    urls.release();
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();

  let clip;
  // Announced once the dialog shows the changed clip, so what the status says is what is on screen
  // (and a next keypress cannot land on a form that is about to be replaced).
  const changed = async (message) => {
    clipsChanged();
    await show().catch(unreadable);
    announce(message);
  };
  const unreadable = (e) => fill(body, h('p', { class: 'error-banner', role: 'alert' }, `Could not open this clip: ${e.message}`));
  const show = async () => {
    clip = await api('GET', `/clips/${id}`);
    const preview = h('div', { class: 'preview-large' }, h('p', { class: 'hint' }, 'Loading preview…'));
    const plugins = await clipActions(clip);
    const meta = await metadata(clip);
    // Title and body change together, never one render apart; a keyboard user stays on the
    // control they used (or lands on the title when it is gone) instead of falling to the page.
    const focused = focusedControl(body);
    title.textContent = clipName(clip);
    fill(body, preview, facts(clip), tagSection(clip, tags, changed), actions(clip, dialog, changed), plugins, meta);
    if (focused) (sameControl(body, focused) ?? title).focus();
    fullPreview(clip, urls).then(
      (node) => fill(preview, node),
      (e) => fill(preview, h('p', { class: 'error-banner' }, `No preview: ${e.message}`)),
    );
  };
  await show().catch(unreadable);
}

/** The control that has focus inside `body`, described so its re-rendered twin can be found. */
function focusedControl(body) {
  const el = document.activeElement;
  return el && el !== body && body.contains(el) ? { id: el.id, tag: el.tagName, text: el.textContent } : null;
}

/** The control in `body` with the same id, else the same element and text (a button). */
function sameControl(body, { id, tag, text }) {
  if (id) return document.getElementById(id);
  return [...body.querySelectorAll(tag)].find((el) => el.textContent === text) ?? null;
}

function facts(clip) {
  return h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Type'),
    h('dd', {}, clip.content_type),
    h('dt', {}, 'Size'),
    h('dd', {}, formatSize(clip.size)),
    h('dt', {}, 'Added'),
    h('dd', {}, timeAgo(clip.created_at)),
    h('dt', {}, 'State'),
    h('dd', {}, clip.is_archived ? 'Archived' : 'Active'),
  );
}

function tagSection(clip, tags, changed) {
  const chips = h('ul', { class: 'chips', 'aria-label': 'Tags of this clip' });
  for (const t of clip.tags) {
    chips.append(
      h(
        'li',
        { class: 'chip' },
        colorDot(t.color),
        h('span', {}, t.name),
        can.edit()
          ? h(
              'button',
              {
                type: 'button',
                class: 'chip-remove',
                'aria-label': `Remove tag ${t.name}`,
                onclick: async () => {
                  try {
                    await api('DELETE', `/clips/${clip.id}/tags/${t.id}`);
                    await changed(`Removed tag ${t.name}.`);
                  } catch (e) {
                    announceError(e, 'Could not remove the tag');
                  }
                },
              },
              '×',
            )
          : null,
      ),
    );
  }
  const section = h('section', { class: 'dialog-section', 'aria-label': 'Tags' }, h('h3', {}, 'Tags'), clip.tags.length ? chips : h('p', { class: 'empty' }, 'No tags.'));
  if (can.edit() && tags.length) {
    const select = h('select', { id: 'add-tag' }, tagOptions(tags));
    const form = h('form', { class: 'inline-row' }, h('label', { for: 'add-tag', class: 'visually-hidden' }, 'Tag to add'), select, h('button', { type: 'submit' }, 'Add tag'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const tag = tags.find((t) => String(t.id) === select.value);
      try {
        await api('PUT', `/clips/${clip.id}/tags/${select.value}`);
        await changed(`Tagged with ${tag?.name ?? 'the tag'} (a clip keeps one tag per top-level tree).`);
      } catch (err) {
        announceError(err, 'Could not add the tag');
      }
    });
    section.append(form);
  }
  return section;
}

function actions(clip, dialog, changed) {
  const row = h('div', { class: 'dialog-actions' });
  row.append(
    h(
      'button',
      {
        type: 'button',
        onclick: () => downloadClip(clip).then(() => announce(`Downloading ${clipName(clip)}.`), (e) => announceError(e, 'Could not download')),
      },
      'Download',
    ),
  );
  if (!can.edit()) return row;
  const name = h('input', { id: 'rename', value: clip.filename, maxlength: '255', required: true });
  const rename = h('form', { class: 'rename' }, field('File name', name), h('button', { type: 'submit', class: 'secondary' }, 'Rename'));
  rename.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await api('PATCH', `/clips/${clip.id}`, { filename: name.value });
      await changed(`Renamed to ${name.value.trim()}.`);
    } catch (err) {
      announceError(err, 'Could not rename');
      name.focus();
    }
  });
  row.append(
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: async () => {
          try {
            await api(clip.is_archived ? 'DELETE' : 'PUT', `/clips/${clip.id}/archive`);
            await changed(clip.is_archived ? 'Moved back from the archive.' : 'Archived.');
          } catch (e) {
            announceError(e, 'Could not change the archive state');
          }
        },
      },
      clip.is_archived ? 'Unarchive' : 'Archive',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'danger',
        onclick: async () => {
          if (!window.confirm(`Delete ${clipName(clip)} for good?`)) return;
          try {
            await api('DELETE', `/clips/${clip.id}`);
            dialog.close();
            announce(`Deleted ${clipName(clip)}.`);
            clipsChanged();
          } catch (e) {
            announceError(e, 'Could not delete');
          }
        },
      },
      'Delete',
    ),
  );
  return h('div', {}, row, rename, expiry(clip, changed));
}

// The API tells when a clip expires to nobody (the clip object has no such field), so the form
// sets or cancels an expiry and says what it did, without claiming to know the current one.
const EXPIRY_CHOICES = [
  [60, '1 hour'],
  [24 * 60, '1 day'],
  [7 * 24 * 60, '7 days'],
  [30 * 24 * 60, '30 days'],
];

function expiry(clip, changed) {
  const select = h('select', { id: 'expire-after' }, ...EXPIRY_CHOICES.map(([m, label]) => h('option', { value: String(m) }, label)));
  const form = h(
    'form',
    { class: 'inline-row expiry', 'aria-label': 'Expiry' },
    h('label', { for: 'expire-after' }, 'Delete automatically after'),
    select,
    h('button', { type: 'submit', class: 'secondary' }, 'Set expiry'),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: async () => {
          try {
            await api('DELETE', `/clips/${clip.id}/expiration`);
            await changed(`${clipName(clip)} will not expire.`);
          } catch (e) {
            announceError(e, 'Could not cancel the expiry');
          }
        },
      },
      'Never expire',
    ),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const label = EXPIRY_CHOICES.find(([m]) => String(m) === select.value)?.[1] ?? `${select.value} minutes`;
    try {
      await api('PUT', `/clips/${clip.id}/expiration`, { minutes: Number(select.value) });
      await changed(`${clipName(clip)} will be deleted automatically in ${label}.`);
    } catch (err) {
      announceError(err, 'Could not set the expiry');
    }
  });
  return form;
}

async function metadata(clip) {
  const data = await api('GET', `/clips/${clip.id}/metadata`).catch(() => ({}));
  const keys = Object.keys(data ?? {});
  if (!keys.length) return null;
  const dl = h('dl', { class: 'facts' });
  for (const k of keys.sort()) dl.append(h('dt', {}, k), h('dd', {}, String(data[k])));
  return h('section', { class: 'dialog-section', 'aria-label': 'Metadata' }, h('h3', {}, 'Metadata'), dl);
}
