// The clip screen: tag tree on the side, search and filters, a grid of clip cards with
// previews, selection with bulk actions, and paging. The filters persist while the tab lives.
import { api, query } from './api.js';
import { h, fill, colorDot, formatSize, timeAgo, clipName, saveBlob } from './dom.js';
import { PreviewUrls, cardPreview } from './preview.js';
import { announce, announceError, can, plural, capitalise } from './shared.js';
import { loadHidden, saveHidden, renderTagTree, tagOptions, newTagForm, editTagForm } from './tags.js';
import { openClip } from './detail.js';
import { chooseFiles } from './upload.js';

const PAGE = 50;
const state = { tag: null, search: '', archived: 'false', offset: 0, showHidden: false };
const selected = new Set();
const cardUrls = new PreviewUrls();
let view = null; // the mounted screen's parts, while it is shown

export async function renderBrowse() {
  const [tags, hidden] = await Promise.all([api('GET', '/tags'), loadHidden()]);
  if (state.tag !== null && !tags.some((t) => t.id === state.tag)) state.tag = null;
  const side = h('div', { class: 'side-body' });
  const results = h('div', { class: 'results', id: 'results' });
  const bulk = h('div', { class: 'bulk-bar', role: 'region', 'aria-label': 'Bulk actions' });
  const hiddenInfo = h('div', { class: 'hidden-info' });
  view = { tags, hidden, side, results, bulk, hiddenInfo };

  const panel = h('details', { class: 'tag-panel', open: !window.matchMedia('(max-width: 700px)').matches }, h('summary', {}, 'Tags'), side);
  const page = h('div', { class: 'page' }, h('aside', { class: 'sidebar' }, panel), h('section', { class: 'content', 'aria-labelledby': 'clips-title' }, toolbar(), hiddenInfo, bulk, results));
  renderSide();
  renderBulk();
  void loadClips();
  return page;
}

function renderSide() {
  const { tags, hidden, side } = view;
  fill(
    side,
    renderTagTree({
      tags,
      selected: state.tag,
      hidden,
      onSelect: (id) => {
        state.tag = id;
        state.offset = 0;
        renderSide();
        void loadClips();
        side.querySelector(id === null ? '.tag-link.all' : `.tag-link[data-tag-id="${id}"]`)?.focus();
      },
      onToggleHidden: async (id) => {
        if (hidden.has(id)) hidden.delete(id);
        else hidden.add(id);
        try {
          await saveHidden(hidden);
        } catch (e) {
          announceError(e, 'Could not save the hidden tags');
        }
        const tag = view.tags.find((t) => t.id === id);
        announce(hidden.has(id) ? `Clips tagged ${tag?.name} are hidden.` : `Clips tagged ${tag?.name} are shown again.`);
        renderSide();
        side.querySelector(`.tag-link[data-tag-id="${id}"] + .hide-toggle`)?.focus();
        void loadClips();
      },
    }),
    can.admin() ? newTagForm(createTag) : null,
    can.admin() ? editTagForm(view.tags, { onSaved: tagChanged, onDeleted: tagChanged, onError: announceError }) : null,
  );
}

async function tagChanged(message, id) {
  await refreshTags();
  announce(message);
  view.side.querySelector('.edit-tags')?.setAttribute('open', '');
  const select = view.side.querySelector('#edit-tag');
  if (select && view.tags.some((t) => t.id === id)) {
    select.value = String(id);
    select.dispatchEvent(new Event('change'));
  }
  select?.focus();
  void loadClips();
}

async function createTag(name, input) {
  try {
    const tag = await api('POST', '/tags', { name });
    input.value = '';
    await refreshTags();
    announce(`Created tag ${tag.name}.`);
  } catch (e) {
    announceError(e, 'Could not create the tag');
    input.focus();
  }
}

async function refreshTags() {
  if (!view) return;
  view.tags = await api('GET', '/tags');
  if (state.tag !== null && !view.tags.some((t) => t.id === state.tag)) state.tag = null;
  renderSide();
  renderBulk();
}

function toolbar() {
  const search = h('input', { type: 'search', id: 'search', name: 'search', value: state.search, placeholder: 'Name or text', autocomplete: 'off' });
  const archived = h(
    'select',
    { id: 'archived' },
    h('option', { value: 'false' }, 'Active'),
    h('option', { value: 'true' }, 'Archived'),
    h('option', { value: 'all' }, 'Active and archived'),
  );
  archived.value = state.archived;
  let timer;
  const run = () => {
    clearTimeout(timer);
    state.search = search.value;
    state.archived = archived.value;
    state.offset = 0;
    void loadClips();
  };
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 300);
  });
  archived.addEventListener('change', run);
  const form = h(
    'form',
    { class: 'toolbar', role: 'search' },
    h('h1', { id: 'clips-title' }, 'Clips'),
    h('div', { class: 'toolbar-field grow' }, h('label', { for: 'search' }, 'Search'), search),
    h('div', { class: 'toolbar-field' }, h('label', { for: 'archived' }, 'Show'), archived),
    h('button', { type: 'submit' }, 'Search'),
    can.edit() ? h('button', { type: 'button', class: 'secondary', id: 'upload-button', onclick: chooseFiles }, 'Upload files') : null,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  return form;
}

function listParams(extra = {}) {
  const hidden = state.showHidden ? [] : [...view.hidden];
  return {
    tag: state.tag ?? undefined,
    archived: state.archived === 'all' ? undefined : state.archived,
    search: state.search || undefined,
    hidden: hidden.length ? hidden.join(',') : undefined,
    ...extra,
  };
}

let loading = 0;
async function loadClips() {
  if (!view) return;
  const ticket = ++loading;
  const { results, hiddenInfo } = view;
  results.setAttribute('aria-busy', 'true');
  try {
    const [page, info] = await Promise.all([
      api('GET', `/clips${query(listParams({ limit: PAGE, offset: state.offset }))}`),
      view.hidden.size && !state.showHidden ? api('GET', `/clips/hidden-info${query(listParams())}`) : Promise.resolve(null),
    ]);
    if (ticket !== loading || !results.isConnected) return;
    if (page.clips.length === 0 && state.offset > 0 && page.total > 0) {
      state.offset = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
      return loadClips();
    }
    cardUrls.release();
    for (const id of [...selected]) if (!page.clips.some((c) => c.id === id)) selected.delete(id);
    renderHiddenInfo(hiddenInfo, info);
    fill(results, summary(page), page.clips.length ? grid(page.clips) : emptyState(), pager(page));
    view.clips = page.clips;
    renderBulk();
  } catch (e) {
    if (ticket === loading) fill(results, h('p', { class: 'error-banner', role: 'alert' }, `Could not list clips: ${e.message}`));
  } finally {
    if (ticket === loading) results.removeAttribute('aria-busy');
  }
}

function renderHiddenInfo(box, info) {
  if (state.showHidden && view.hidden.size) {
    fill(box, h('p', {}, 'Showing clips of hidden tags too. ', h('button', { type: 'button', class: 'link', onclick: () => toggleShowHidden(false) }, 'Hide them again')));
    return;
  }
  if (!info || info.count === 0) return fill(box);
  fill(
    box,
    h(
      'p',
      {},
      `${plural(info.count, 'clip')} hidden by the tag${info.tags.length === 1 ? '' : 's'} ${info.tags.join(', ')}. `,
      h('button', { type: 'button', class: 'link', onclick: () => toggleShowHidden(true) }, 'Show them'),
    ),
  );
}

function toggleShowHidden(on) {
  state.showHidden = on;
  state.offset = 0;
  void loadClips();
}

function summary(page) {
  const where = [];
  const tag = view.tags.find((t) => t.id === state.tag);
  if (tag) where.push(`tagged ${tag.name}`);
  if (state.search) where.push(`matching “${state.search}”`);
  if (state.archived === 'true') where.push('in the archive');
  return h('p', { class: 'summary', id: 'result-summary', tabindex: '-1' }, `${capitalise(plural(page.total, 'clip'))}${where.length ? ` ${where.join(', ')}` : ''}`);
}

function emptyState() {
  if (state.search || state.tag !== null || state.archived !== 'false') return h('p', { class: 'empty card' }, 'No clips match these filters. Clear the search or pick “All clips”.');
  return h(
    'div',
    { class: 'empty card' },
    h('h2', {}, 'No clips yet'),
    h('p', {}, can.edit() ? 'Clips are files and text snippets. Drop files anywhere on this page, paste with Ctrl+V, or use “Upload files”.' : 'Clips are files and text snippets; this key can look but not upload.'),
  );
}

function grid(clips) {
  const ul = h('ul', { class: 'clip-grid', 'aria-labelledby': 'result-summary' });
  for (const clip of clips) ul.append(card(clip));
  return ul;
}

function card(clip) {
  const name = clipName(clip);
  const open = () => openClip(clip.id, view.tags);
  const box = h('input', { type: 'checkbox', class: 'select', checked: selected.has(clip.id), 'aria-label': `Select ${name}` });
  box.addEventListener('change', () => {
    if (box.checked) selected.add(clip.id);
    else selected.delete(clip.id);
    box.closest('li').classList.toggle('selected', box.checked);
    renderBulk();
  });
  const preview = cardPreview(clip, cardUrls);
  preview.addEventListener('click', open);
  return h(
    'li',
    { class: `clip-card${selected.has(clip.id) ? ' selected' : ''}`, dataset: { clipId: String(clip.id) } },
    preview,
    h(
      'div',
      { class: 'clip-meta' },
      h('div', { class: 'clip-title-row' }, box, h('button', { type: 'button', class: 'clip-name', onclick: open, title: name }, name)),
      h('p', { class: 'clip-facts' }, `${formatSize(clip.size)} · `, timeAgo(clip.created_at), clip.is_archived ? h('span', { class: 'badge' }, 'archived') : null),
      clip.tags.length ? h('ul', { class: 'chips small', 'aria-label': 'Tags' }, clip.tags.map((t) => h('li', { class: 'chip' }, colorDot(t.color), h('span', {}, t.name)))) : null,
    ),
  );
}

function pager(page) {
  if (page.total <= PAGE) return null;
  const from = page.offset + 1;
  const to = page.offset + page.clips.length;
  const go = (offset) => {
    state.offset = offset;
    void loadClips().then(() => document.getElementById('result-summary')?.scrollIntoView({ block: 'nearest' }));
  };
  return h(
    'nav',
    { class: 'pagination', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'secondary', disabled: page.offset === 0, onclick: () => go(Math.max(0, page.offset - PAGE)) }, 'Previous'),
    h('span', {}, `${from}–${to} of ${page.total}`),
    h('button', { type: 'button', class: 'secondary', disabled: to >= page.total, onclick: () => go(page.offset + PAGE) }, 'Next'),
  );
}

function renderBulk() {
  if (!view) return;
  const { bulk } = view;
  const count = selected.size;
  const none = count === 0;
  const pageIds = (view.clips ?? []).map((c) => c.id);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const parts = [
    h('span', { class: 'bulk-count' }, none ? 'Select clips to act on several at once.' : `${plural(count, 'clip')} selected`),
    pageIds.length
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => {
              for (const id of pageIds) {
                if (allSelected) selected.delete(id);
                else selected.add(id);
              }
              for (const li of view.results.querySelectorAll('.clip-card')) {
                const on = selected.has(Number(li.dataset.clipId));
                li.classList.toggle('selected', on);
                li.querySelector('input.select').checked = on;
              }
              renderBulk();
              bulk.querySelector('button')?.focus();
            },
          },
          allSelected ? 'Clear selection' : 'Select page',
        )
      : null,
  ];
  // Actions appear once something is selected, so the bar stays one quiet line otherwise.
  if (!none) parts.push(h('button', { type: 'button', class: 'secondary', onclick: downloadZip }, 'Download ZIP'));
  if (!none && can.edit()) {
    const tagSelect = h('select', { id: 'bulk-tag', disabled: none || !view.tags.length }, tagOptions(view.tags));
    parts.push(
      h(
        'div',
        { class: 'bulk-group' },
        h('label', { for: 'bulk-tag', class: 'visually-hidden' }, 'Tag for the selected clips'),
        tagSelect,
        h('button', { type: 'button', class: 'secondary', disabled: none || !view.tags.length, dataset: { op: 'tag' }, onclick: () => bulkOp('tag', { tag_id: Number(tagSelect.value) }) }, 'Add tag'),
        h('button', { type: 'button', class: 'secondary', disabled: none || !view.tags.length, dataset: { op: 'untag' }, onclick: () => bulkOp('untag', { tag_id: Number(tagSelect.value) }) }, 'Remove tag'),
      ),
      h('button', { type: 'button', class: 'secondary', disabled: none, dataset: { op: 'archive' }, onclick: () => bulkOp('archive') }, 'Archive'),
      h('button', { type: 'button', class: 'secondary', disabled: none, dataset: { op: 'unarchive' }, onclick: () => bulkOp('unarchive') }, 'Unarchive'),
      h('button', { type: 'button', class: 'danger', disabled: none, dataset: { op: 'delete' }, onclick: () => bulkOp('delete') }, 'Delete'),
    );
  }
  const focusedLabel = bulk.contains(document.activeElement) ? document.activeElement.textContent : null;
  fill(bulk, ...parts);
  if (focusedLabel) [...bulk.querySelectorAll('button')].find((b) => b.textContent === focusedLabel && !b.disabled)?.focus();
}

const DONE = {
  tag: (n, extra) => `Tagged ${plural(n, 'clip')} with ${tagName(extra.tag_id)}.`,
  untag: (n, extra) => `Removed ${tagName(extra.tag_id)} from ${plural(n, 'clip')}.`,
  archive: (n) => `Archived ${plural(n, 'clip')}.`,
  unarchive: (n) => `Moved ${plural(n, 'clip')} out of the archive.`,
  delete: (n) => `Deleted ${plural(n, 'clip')}.`,
};

function tagName(id) {
  return view?.tags.find((t) => t.id === id)?.name ?? 'the tag';
}

async function bulkOp(op, extra = {}) {
  const ids = [...selected];
  if (op === 'delete' && !window.confirm(`Delete ${plural(ids.length, 'clip')} for good?`)) return;
  let answer;
  try {
    answer = await api('POST', `/clips/bulk/${op}`, { ids, ...extra });
  } catch (e) {
    announceError(e, 'Nothing was changed');
    return;
  }
  const n = Object.values(answer ?? {})[0] ?? ids.length;
  selected.clear();
  await refreshTags().catch(() => undefined);
  await loadClips();
  announce(DONE[op](n, extra));
  // The buttons just used are gone with the selection: keep the keyboard near the results.
  document.getElementById('result-summary')?.focus();
}

async function downloadZip() {
  try {
    const res = await api('POST', '/clips/bulk/download', { ids: [...selected] }, { raw: true });
    saveBlob(await res.blob(), 'clips.zip');
    announce(`Downloading ${plural(selected.size, 'clip')} as clips.zip.`);
  } catch (e) {
    announceError(e, 'Could not download');
  }
}

document.addEventListener('clips:changed', () => {
  if (view?.results.isConnected) {
    void refreshTags();
    void loadClips();
  }
});

