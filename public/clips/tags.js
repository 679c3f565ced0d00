// The tag tree of the clip screen: tags by their /-separated names, with counts and colours,
// a filter button per tag, and a hide switch per tag. Hidden tags are a client preference the
// server only stores (GET/PUT /tags/hidden, admin to change): an admin's switch saves the list,
// anyone else's lasts for this tab. Arrow keys move through the tree, Left/Right fold it.
import { api } from './api.js';
import { h, colorDot } from './dom.js';
import { can } from './shared.js';

const SESSION_HIDDEN = 'stacks.clips.hidden';
const folded = new Set();

export async function loadHidden() {
  const own = sessionStorage.getItem(SESSION_HIDDEN);
  if (own) {
    try {
      return new Set(JSON.parse(own));
    } catch {
      /* fall back to the stored list */
    }
  }
  const { ids } = await api('GET', '/tags/hidden');
  return new Set(ids);
}

export async function saveHidden(ids) {
  const list = [...ids];
  if (can.admin()) {
    await api('PUT', '/tags/hidden', { ids: list });
    sessionStorage.removeItem(SESSION_HIDDEN);
  } else sessionStorage.setItem(SESSION_HIDDEN, JSON.stringify(list));
}

/**
 * Nodes by path. A tag whose parent was deleted still sits under its parent's name (the
 * service keeps such orphans in the same tree), shown as a plain label without a filter.
 */
export function buildTree(tags) {
  const root = { children: new Map() };
  for (const tag of [...tags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    let node = root;
    let path = '';
    for (const segment of tag.name.split('/')) {
      path = path ? `${path}/${segment}` : segment;
      if (!node.children.has(segment)) node.children.set(segment, { segment, path, tag: null, children: new Map() });
      node = node.children.get(segment);
    }
    node.tag = tag;
  }
  return root;
}

/** Tag name → the full names of the tags below it, for "hidden because of its parent". */
function isBelowHidden(path, hiddenNames) {
  for (const name of hiddenNames) if (path.startsWith(`${name}/`)) return true;
  return false;
}

export function renderTagTree({ tags, selected, hidden, onSelect, onToggleHidden }) {
  const tree = buildTree(tags);
  const hiddenNames = tags.filter((t) => hidden.has(t.id)).map((t) => t.name);
  const list = (node, level) => {
    const ul = h('ul');
    for (const child of node.children.values()) ul.append(item(child, level));
    return ul;
  };
  const item = (node, level) => {
    const hasChildren = node.children.size > 0;
    const isFolded = folded.has(node.path);
    const tag = node.tag;
    const isHidden = tag && hidden.has(tag.id);
    const row = h('div', { class: 'tag-row' });
    if (hasChildren) {
      row.append(
        h(
          'button',
          {
            type: 'button',
            class: 'fold',
            'aria-expanded': String(!isFolded),
            'aria-label': `${isFolded ? 'Show' : 'Hide'} tags under ${node.path}`,
            onclick: (e) => {
              if (folded.has(node.path)) folded.delete(node.path);
              else folded.add(node.path);
              const li = e.currentTarget.closest('li');
              const open = !folded.has(node.path);
              li.querySelector(':scope > ul').hidden = !open;
              e.currentTarget.setAttribute('aria-expanded', String(open));
              e.currentTarget.setAttribute('aria-label', `${open ? 'Hide' : 'Show'} tags under ${node.path}`);
              e.currentTarget.textContent = open ? '▾' : '▸';
            },
          },
          isFolded ? '▸' : '▾',
        ),
      );
    } else row.append(h('span', { class: 'fold-space', 'aria-hidden': 'true' }));
    if (tag) {
      row.append(
        h(
          'button',
          {
            type: 'button',
            class: `tag-link${isHidden || isBelowHidden(node.path, hiddenNames) ? ' is-hidden' : ''}`,
            'aria-current': selected === tag.id ? 'true' : null,
            dataset: { tagId: String(tag.id), path: node.path },
            title: tag.name,
            onclick: () => onSelect(tag.id),
          },
          colorDot(tag.color),
          h('span', { class: 'tag-name' }, node.segment),
          h('span', { class: 'count', 'aria-label': `${tag.count} clips` }, String(tag.count)),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'hide-toggle',
            'aria-pressed': String(Boolean(isHidden)),
            'aria-label': `Hide clips tagged ${tag.name}`,
            title: isHidden ? 'Hidden: click to show these clips again' : 'Hide clips with this tag',
            onclick: () => onToggleHidden(tag.id),
          },
          'hide',
        ),
      );
    } else row.append(h('span', { class: 'tag-orphan', title: `${node.path} (no tag of its own)` }, node.segment));
    const li = h('li', {}, row);
    if (hasChildren) {
      const sub = list(node, level + 1);
      sub.hidden = isFolded;
      li.append(sub);
    }
    return li;
  };
  const nav = h(
    'nav',
    { class: 'tag-tree', 'aria-label': 'Tags' },
    h(
      'button',
      { type: 'button', class: 'tag-link all', 'aria-current': selected === null ? 'true' : null, onclick: () => onSelect(null) },
      h('span', { class: 'tag-name' }, 'All clips'),
    ),
    tags.length ? list(tree, 1) : h('p', { class: 'empty' }, can.admin() ? 'No tags yet: create one below, then tag clips from their details or in bulk.' : 'No tags yet.'),
  );
  nav.addEventListener('keydown', treeKeys);
  return nav;
}

/** Up/Down move between visible tag buttons; Right unfolds, Left folds or goes to the parent. */
function treeKeys(e) {
  if (!e.target.classList?.contains('tag-link')) return;
  const visible = [...e.currentTarget.querySelectorAll('.tag-link')].filter((b) => b.offsetParent !== null);
  const at = visible.indexOf(e.target);
  const li = e.target.closest('li');
  const fold = li?.querySelector(':scope > .tag-row > .fold');
  let next = null;
  if (e.key === 'ArrowDown') next = visible[at + 1];
  else if (e.key === 'ArrowUp') next = visible[at - 1];
  else if (e.key === 'Home') next = visible[0];
  else if (e.key === 'End') next = visible[visible.length - 1];
  else if (e.key === 'ArrowRight' && fold?.getAttribute('aria-expanded') === 'false') fold.click();
  else if (e.key === 'ArrowLeft') {
    if (fold?.getAttribute('aria-expanded') === 'true') fold.click();
    else next = li?.parentElement?.closest('li')?.querySelector(':scope > .tag-row > .tag-link');
  } else return;
  e.preventDefault();
  next?.focus();
}

/** <option>s of every tag by full name, for pickers (bulk tag, watch auto-tag, serve). */
export function tagOptions(tags, { none } = {}) {
  const opts = [];
  if (none) opts.push(h('option', { value: '' }, none));
  for (const t of [...tags].sort((a, b) => (a.name < b.name ? -1 : 1))) opts.push(h('option', { value: String(t.id) }, t.name));
  return opts;
}

/** The admin's "new tag" form under the tree. */
export function newTagForm(onCreated) {
  const input = h('input', { name: 'name', id: 'new-tag', required: true, maxlength: '50', placeholder: 'work/client' });
  const form = h(
    'form',
    { class: 'new-tag' },
    h('label', { for: 'new-tag' }, 'New tag'),
    h('div', { class: 'inline-row' }, input, h('button', { type: 'submit' }, 'Create')),
    h('small', { class: 'hint' }, 'Use / for levels; missing parents are created.'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    await onCreated(input.value.trim(), input);
  });
  return form;
}

/** The admin's rename / recolour / delete form, folded under the tree. */
export function editTagForm(tags, { onSaved, onDeleted, onError }) {
  if (!tags.length) return null;
  const sorted = [...tags].sort((a, b) => (a.name < b.name ? -1 : 1));
  const select = h('select', { id: 'edit-tag' }, tagOptions(sorted));
  const name = h('input', { id: 'edit-tag-name', required: true, maxlength: '50' });
  const color = h('input', { id: 'edit-tag-color', type: 'color' });
  const current = () => sorted.find((t) => String(t.id) === select.value);
  const load = () => {
    const tag = current();
    name.value = tag?.name ?? '';
    color.value = /^#[0-9a-fA-F]{6}$/.test(tag?.color ?? '') ? tag.color.toLowerCase() : '#78716c';
  };
  select.addEventListener('change', load);
  load();
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete tag');
  const form = h(
    'form',
    { class: 'edit-tag' },
    h('label', { for: 'edit-tag' }, 'Tag'),
    select,
    h('label', { for: 'edit-tag-name' }, 'Name'),
    name,
    h('label', { for: 'edit-tag-color' }, 'Colour'),
    color,
    h('div', { class: 'inline-row' }, h('button', { type: 'submit' }, 'Save'), remove),
    h('small', { class: 'hint' }, 'Renaming moves the tags below it too. Deleting keeps its child tags and its clips.'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const tag = current();
    try {
      await api('PUT', `/tags/${tag.id}`, { name: name.value.trim(), color: color.value });
      await onSaved(`Saved tag ${name.value.trim()}.`, tag.id);
    } catch (err) {
      onError(err, 'Could not save the tag');
      name.focus();
    }
  });
  remove.addEventListener('click', async () => {
    const tag = current();
    if (!window.confirm(`Delete the tag ${tag.name}? Its clips stay, without this tag; tags below it stay too.`)) return;
    try {
      await api('DELETE', `/tags/${tag.id}`);
      await onDeleted(`Deleted tag ${tag.name}.`, tag.id);
    } catch (err) {
      onError(err, 'Could not delete the tag');
    }
  });
  return h('details', { class: 'edit-tags' }, h('summary', {}, 'Edit tags'), form);
}
