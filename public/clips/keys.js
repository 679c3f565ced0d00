// API keys (admins; clip-api.md "API keys and status"): every key newest first, active and
// revoked, with its role, tag scope and last use; make a key (its secret is shown once, here,
// and never again) and revoke one. Revocation works on the next request that key makes.
import { api } from './api.js';
import { h, fill, field, timeAgo } from './dom.js';
import { announce, announceError, can } from './shared.js';
import { tagOptions } from './tags.js';

const ROLES = {
  viewer: 'Viewer: reads clips and tags',
  editor: 'Editor: also adds, changes and deletes clips',
  admin: 'Admin: also tags, keys, serving, watch folders, backup',
};

export async function renderKeys() {
  const root = h('section', { class: 'screen', 'aria-labelledby': 'keys-title' }, h('h1', { id: 'keys-title' }, 'API keys'));
  if (!can.admin()) {
    root.append(h('p', { class: 'empty card' }, 'Only an admin key can see and manage API keys.'));
    return root;
  }
  const secret = h('div', { id: 'new-key', 'aria-live': 'polite' });
  const body = h('div');
  root.append(h('p', { class: 'hint' }, 'Each tool or person gets a key of its own, so one can be revoked without the others.'), secret, body);
  await load(body, secret);
  return root;
}

async function load(body, secret) {
  const [keys, tags] = await Promise.all([api('GET', '/keys'), api('GET', '/tags')]);
  const rows = keys.map((k) =>
    h(
      'tr',
      { class: k.is_revoked ? 'revoked' : '' },
      h('td', {}, k.name),
      h('td', {}, h('code', {}, `${k.key_prefix}…`)),
      h('td', {}, k.role),
      h('td', {}, k.scoped_tag_name || 'all tags'),
      h('td', {}, k.is_revoked ? `revoked ${timeAgo(k.revoked_at)}` : k.last_used_at ? `used ${timeAgo(k.last_used_at)}` : 'never used'),
      h(
        'td',
        {},
        k.is_revoked
          ? ''
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': `Revoke ${k.name}`,
                onclick: async () => {
                  if (!window.confirm(`Revoke the key "${k.name}"? Tools using it stop working at once.`)) return;
                  try {
                    await api('DELETE', `/keys/${k.id}`);
                    await load(body, secret);
                    announce(`Revoked ${k.name}.`);
                  } catch (e) {
                    announceError(e, 'Could not revoke');
                  }
                },
              },
              'Revoke',
            ),
      ),
    ),
  );
  const table = h(
    'table',
    { class: 'list keys-list' },
    h('thead', {}, h('tr', {}, ...['Name', 'Key', 'Role', 'Tags', 'State'].map((t) => h('th', { scope: 'col' }, t)), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
    h('tbody', {}, ...rows),
  );
  fill(body, h('div', { class: 'card table-wrap' }, table), createForm(tags, async (made) => {
    fill(secret, h('div', { class: 'card new-key', role: 'status' }, h('p', {}, `New key for ${made.info.name}. Copy it now: it is not shown again.`), h('code', { class: 'secret', 'data-testid': 'new-key' }, made.key)));
    await load(body, secret);
  }));
}

function createForm(tags, created) {
  const name = h('input', { id: 'key-name', required: true, maxlength: '200', autocomplete: 'off' });
  const role = h('select', { id: 'key-role' }, Object.entries(ROLES).map(([v, label]) => h('option', { value: v }, label)));
  const scope = h('select', { id: 'key-scope' }, h('option', { value: '0' }, 'All tags'), tagOptions(tags));
  const form = h('form', { class: 'form card' }, h('h2', {}, 'New key'), field('Name', name, 'Who or what uses it, e.g. "laptop sync".'), field('Role', role), field('Limited to tag', scope, 'A limited key sees that tag and the tags under it only.'), h('button', { type: 'submit' }, 'Create key'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await api('POST', '/keys', { name: name.value, role: role.value, scoped_tag_id: Number(scope.value) });
      name.value = '';
      await created(made);
      announce(`Created the key ${made.info.name}; copy it from the box above.`);
    } catch (err) {
      announceError(err, 'Could not create the key');
      name.focus();
    }
  });
  return form;
}
