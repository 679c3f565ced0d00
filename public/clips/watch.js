// Watch folders: folders on the server whose new files are imported as clips (and then
// removed from the folder). Everyone sees them; admins add, pause, scan and remove them.
import { api } from './api.js';
import { h, field, checkbox } from './dom.js';
import { announce, announceError, can, plural } from './shared.js';
import { actButton, listScreen } from './screen.js';
import { tagOptions } from './tags.js';

const PRESETS = [
  ['images', 'Images'],
  ['documents', 'Documents'],
  ['videos', 'Videos'],
];

export function renderWatch() {
  return listScreen({ id: 'watch', title: 'Watch folders', hint: 'Files put into a watched folder on the server become clips and are then removed from the folder.', load });
}

async function load(screen) {
  const [{ folders }, status, tags] = await Promise.all([api('GET', '/watch'), api('GET', '/watch/status'), api('GET', '/tags')]);
  const tagName = (id) => tags.find((t) => t.id === id)?.name;
  const button = (label, cls, method, path, done, focus) => actButton(screen, label, { class: cls }, { method, path, done, failed: 'Nothing was changed', focus });
  const global = h(
    'div',
    { class: 'card screen-actions' },
    h('p', {}, status.global_paused ? 'All watching is paused. ' : `Watching ${status.active_count} of ${plural(status.total_count, 'folder')}. `),
    can.admin()
      ? actButton(screen, status.global_paused ? 'Resume all' : 'Pause all', { id: 'global-pause', class: 'secondary' }, {
          method: status.global_paused ? 'DELETE' : 'PUT',
          path: '/watch/global-pause',
          done: status.global_paused ? 'Watching resumed (folders paused one by one stay paused).' : 'All watching paused.',
          failed: 'Nothing was changed',
          focus: '#global-pause',
        })
      : null,
  );
  const list = h('ul', { class: 'watch-list' });
  for (const f of folders) {
    const filter = f.filter_mode === 'presets' ? `only ${f.filter_presets.join(', ') || 'nothing'}` : f.filter_mode === 'custom' ? `names matching ${f.filter_regex || 'anything'}` : 'every file';
    const badges = [];
    if (!f.exists) badges.push(h('span', { class: 'badge danger' }, 'missing on disk'));
    if (f.is_paused) badges.push(h('span', { class: 'badge muted' }, 'paused'));
    else if (f.exists && !status.global_paused) badges.push(h('span', { class: 'badge' }, 'watching'));
    const details = [`Imports ${filter}`];
    if (f.auto_tag_id) details.push(`tags them ${tagName(f.auto_tag_id) ?? 'with a deleted tag'}`);
    if (f.auto_archive) details.push('archives them');
    list.append(
      h(
        'li',
        { class: 'card watch-folder' },
        h('p', { class: 'path' }, h('code', {}, f.path), ' ', ...badges),
        h('p', { class: 'hint' }, `${details.join(', ')}.`),
        can.admin()
          ? h(
              'div',
              { class: 'row-actions' },
              button(f.is_paused ? 'Resume' : 'Pause', 'secondary', f.is_paused ? 'DELETE' : 'PUT', `/watch/${f.id}/pause`, f.is_paused ? `Resumed ${f.path}.` : `Paused ${f.path}.`),
              button('Import existing files', 'secondary', 'POST', `/watch/${f.id}/process`, `Imported the files waiting in ${f.path}.`),
              actButton(screen, 'Stop watching', { class: 'danger' }, { method: 'DELETE', path: `/watch/${f.id}`, confirm: `Stop watching ${f.path}? Its files stay where they are.`, done: `Stopped watching ${f.path}.`, failed: 'Nothing was changed' }),
            )
          : null,
      ),
    );
  }
  return [
    global,
    folders.length ? list : h('p', { class: 'empty card' }, can.admin() ? 'No folders are watched yet. Add one below: give the absolute path of a folder on the server.' : 'No folders are watched yet. An admin can add them.'),
    can.admin() ? addForm(tags, screen.reload) : null,
  ];
}

function addForm(tags, reload) {
  const path = h('input', { id: 'watch-path', name: 'path', required: true, placeholder: '/home/me/Inbox', autocomplete: 'off' });
  const mode = h('select', { id: 'watch-mode' }, h('option', { value: 'all' }, 'Every file'), h('option', { value: 'presets' }, 'Some kinds of files'), h('option', { value: 'custom' }, 'Names matching a pattern'));
  const presets = PRESETS.map(([value, label]) => checkbox(label, { name: 'preset', value }));
  const presetBox = h('fieldset', { class: 'presets', hidden: true }, h('legend', {}, 'Kinds'), ...presets);
  const regex = h('input', { id: 'watch-regex', placeholder: '\\.(png|jpe?g)$', autocomplete: 'off' });
  const regexField = field('Pattern', regex, 'A regular expression searched in the file name.');
  regexField.hidden = true;
  mode.addEventListener('change', () => {
    presetBox.hidden = mode.value !== 'presets';
    regexField.hidden = mode.value !== 'custom';
  });
  const tag = h('select', { id: 'watch-tag' }, tagOptions(tags, { none: 'No tag' }));
  const archive = checkbox('Archive imported clips', { id: 'watch-archive' });
  const existing = checkbox('Import the files already there', { id: 'watch-existing' });
  const form = h(
    'form',
    { class: 'form card' },
    h('h2', {}, 'Watch a folder'),
    field('Folder path', path, 'An absolute path on the server running the clip service.'),
    field('Import', mode),
    presetBox,
    regexField,
    field('Tag imports with', tag),
    archive,
    existing,
    h('button', { type: 'submit' }, 'Watch folder'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = {
      path: path.value.trim(),
      filter_mode: mode.value,
      filter_presets: presets.map((p) => p.querySelector('input')).filter((i) => i.checked).map((i) => i.value),
      filter_regex: regex.value,
      auto_tag_id: tag.value ? Number(tag.value) : null,
      auto_archive: archive.querySelector('input').checked,
      process_existing: existing.querySelector('input').checked,
    };
    try {
      const folder = await api('POST', '/watch', body);
      await reload();
      announce(`Now watching ${folder.path}.`);
    } catch (err) {
      announceError(err, 'Could not watch the folder');
      path.focus();
    }
  });
  return form;
}
