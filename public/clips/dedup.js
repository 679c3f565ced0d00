// Duplicates: clips with the same bytes, grouped by content hash. An editor merges one group
// (keeping its oldest clip, which takes the others' tags); an admin merges all at once.
import { api } from './api.js';
import { h, fileIcon, clipName } from './dom.js';
import { caller, can, plural } from './shared.js';
import { openClip } from './detail.js';
import { actButton, listScreen } from './screen.js';

export function renderDedup() {
  return listScreen({
    id: 'dedup',
    title: 'Duplicates',
    hint: 'Clips whose bytes are identical. Uploads never make duplicates; watch folders and tag-server uploads can.',
    refusal: () => (caller.scoped ? 'Duplicate search covers the whole store, so it is not available to a key limited to one tag.' : null),
    load,
  });
}

async function load(screen) {
  const { groups, total } = await api('GET', '/dedup');
  if (!groups.length) return [h('p', { class: 'empty card' }, 'No duplicates: every clip holds different bytes.')];
  const list = h('ul', { class: 'dedup-list' });
  for (const g of groups) {
    list.append(
      h(
        'li',
        { class: 'card dedup-group' },
        fileIcon(g.content_type, g.filename),
        h(
          'div',
          { class: 'dedup-text' },
          h('button', { type: 'button', class: 'link clip-name', onclick: () => openClip(g.oldest_id, []) }, clipName({ id: g.oldest_id, filename: g.filename, content_type: g.content_type })),
          h('p', { class: 'hint' }, `${g.content_type} · ${g.count} copies`),
          h('p', { class: 'hash' }, h('span', { class: 'visually-hidden' }, 'Content hash '), g.content_hash.slice(0, 16), '…'),
        ),
        can.edit() ? actButton(screen, 'Keep oldest, merge', {}, { method: 'POST', path: `/dedup/${g.oldest_id}/merge`, done: `Merged ${g.count} copies of ${g.filename || 'the clip'} into one (tags kept).`, failed: 'Could not merge', focus: 'button' }) : null,
      ),
    );
  }
  return [
    h(
      'div',
      { class: 'screen-actions' },
      h('p', {}, `${plural(total, 'group')} of duplicates.`),
      can.admin()
        ? actButton(screen, 'Merge all', { class: 'danger' }, { method: 'POST', path: '/dedup/all', confirm: 'Merge every group, keeping the oldest clip of each?', done: ({ removed }) => `Merged every group: ${plural(removed, 'duplicate')} removed.`, failed: 'Could not merge' })
        : null,
    ),
    list,
  ];
}
