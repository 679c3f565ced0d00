// Duplicates: clips with the same bytes, grouped by content hash. An editor merges one group
// (keeping its oldest clip, which takes the others' tags); an admin merges all at once.
import { api } from './api.js';
import { h, fill, fileIcon, clipName } from './dom.js';
import { announce, announceError, caller, can, plural } from './shared.js';
import { openClip } from './detail.js';

export async function renderDedup() {
  const root = h('section', { class: 'screen', 'aria-labelledby': 'dedup-title' }, h('h1', { id: 'dedup-title' }, 'Duplicates'));
  if (caller.scoped) {
    root.append(h('p', { class: 'card' }, 'Duplicate search covers the whole store, so it is not available to a key limited to one tag.'));
    return root;
  }
  const body = h('div');
  root.append(h('p', { class: 'hint' }, 'Clips whose bytes are identical. Uploads never make duplicates; watch folders and tag-server uploads can.'), body);
  await load(body);
  return root;
}

async function load(body) {
  const { groups, total } = await api('GET', '/dedup');
  if (!groups.length) {
    fill(body, h('p', { class: 'empty card' }, 'No duplicates: every clip holds different bytes.'));
    return;
  }
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
        can.edit()
          ? h(
              'button',
              {
                type: 'button',
                onclick: async () => {
                  try {
                    await api('POST', `/dedup/${g.oldest_id}/merge`);
                    await load(body);
                    announce(`Merged ${g.count} copies of ${g.filename || 'the clip'} into one (tags kept).`);
                    body.querySelector('button')?.focus();
                  } catch (e) {
                    announceError(e, 'Could not merge');
                  }
                },
              },
              'Keep oldest, merge',
            )
          : null,
      ),
    );
  }
  fill(
    body,
    h(
      'div',
      { class: 'screen-actions' },
      h('p', {}, `${plural(total, 'group')} of duplicates.`),
      can.admin()
        ? h(
            'button',
            {
              type: 'button',
              class: 'danger',
              onclick: async () => {
                if (!window.confirm('Merge every group, keeping the oldest clip of each?')) return;
                try {
                  const { removed } = await api('POST', '/dedup/all');
                  await load(body);
                  announce(`Merged every group: ${plural(removed, 'duplicate')} removed.`);
                } catch (e) {
                  announceError(e, 'Could not merge');
                }
              },
            },
            'Merge all',
          )
        : null,
    ),
    list,
  );
}
