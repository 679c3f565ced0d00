// Tag serving: publish one tag's clips as a small website on a port of its own (admin starts
// and stops; everyone sees what runs). Servers stop when the service restarts.
import { api } from './api.js';
import { h, field, checkbox } from './dom.js';
import { announce, announceError, can } from './shared.js';
import { actButton, listScreen } from './screen.js';
import { tagOptions } from './tags.js';

const ACCESS = {
  none: 'Files only',
  read: 'Files and read-only JSON API',
  readwrite: 'Files, JSON API and uploads',
};

export function renderServe() {
  return listScreen({ id: 'serve', title: 'Serving', hint: 'Publish a tag as a small website: its clips become files, its child tags folders.', load });
}

function safeUrl(url) {
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

async function load(screen) {
  const [{ servers }, tags] = await Promise.all([api('GET', '/serve'), api('GET', '/tags')]);
  const list = h('ul', { class: 'serve-list' });
  for (const s of servers) {
    const url = safeUrl(s.url);
    list.append(
      h(
        'li',
        { class: 'card serve-item' },
        h('p', {}, h('strong', {}, s.tag_name), ' ', h('span', { class: 'badge' }, s.running ? 'running' : 'stopped')),
        h('p', {}, url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url) : `port ${s.port}`),
        h('p', { class: 'hint' }, `${ACCESS[s.api_access] ?? s.api_access} · ${s.bind_all ? 'reachable from the network' : 'this machine only'} · ${s.request_count} requests`),
        can.admin() ? actButton(screen, `Stop serving ${s.tag_name}`, { class: 'danger' }, { method: 'DELETE', path: `/serve/${s.tag_id}`, done: `Stopped serving ${s.tag_name}.`, failed: 'Could not stop' }) : null,
      ),
    );
  }
  return [
    servers.length ? list : h('p', { class: 'empty card' }, can.admin() ? 'No tag is served. Pick one below to publish it.' : 'No tag is served. An admin can publish one.'),
    can.admin() ? startForm(tags, screen.reload) : null,
  ];
}

function startForm(tags, reload) {
  if (!tags.length) return h('p', { class: 'hint' }, 'Create a tag on the Clips screen first.');
  const tag = h('select', { id: 'serve-tag', required: true }, tagOptions(tags));
  const port = h('input', { id: 'serve-port', type: 'number', min: '0', max: '65535', value: '0', inputmode: 'numeric' });
  const access = h('select', { id: 'serve-access' }, Object.entries(ACCESS).map(([v, label]) => h('option', { value: v }, label)));
  const bindAll = checkbox('Reachable from other machines', { id: 'serve-bind-all' });
  const form = h(
    'form',
    { class: 'form card' },
    h('h2', {}, 'Serve a tag'),
    field('Tag', tag),
    field('Port', port, '0 picks a free port.'),
    field('Access', access),
    bindAll,
    h('button', { type: 'submit' }, 'Start serving'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const s = await api('POST', '/serve', { tag_id: Number(tag.value), port: Number(port.value || 0), api_access: access.value, bind_all: bindAll.querySelector('input').checked });
      await reload();
      announce(`Serving ${s.tag_name} at ${s.url}.`);
    } catch (err) {
      announceError(err, 'Could not start serving');
    }
  });
  return form;
}
