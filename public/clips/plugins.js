// Plugins: what is installed, whether it runs, and the plugins' global actions. Admins install
// from a URL or a .lua file on the server, enable, disable and remove.
import { api } from './api.js';
import { h, fill, field } from './dom.js';
import { announce, announceError, can, capitalise } from './shared.js';
import { actionControl, loadActions } from './actions.js';

export async function renderPlugins() {
  const root = h('section', { class: 'screen', 'aria-labelledby': 'plugins-title' }, h('h1', { id: 'plugins-title' }, 'Plugins'));
  const body = h('div');
  root.append(h('p', { class: 'hint' }, 'Lua plugins react to clips being added and add their own actions to clips.'), body);
  await load(body);
  return root;
}

async function load(body) {
  const [{ plugins }, actions] = await Promise.all([api('GET', '/plugins'), loadActions()]);
  const act = async (method, path, message) => {
    try {
      await api(method, path);
    } catch (e) {
      announceError(e, 'Nothing was changed');
      return;
    }
    await load(body).catch(() => undefined);
    announce(message);
  };
  const list = h('ul', { class: 'plugin-list' });
  for (const p of plugins) {
    const globals = (actions.global_actions ?? []).filter((a) => a.plugin_id === p.id);
    list.append(
      h(
        'li',
        { class: 'card plugin' },
        h('p', {}, h('strong', {}, p.name), ` ${p.version}`, h('span', { class: `badge${p.enabled ? '' : ' muted'}` }, p.enabled ? capitalise(p.status) : 'disabled')),
        p.description ? h('p', {}, p.description) : null,
        h('p', { class: 'hint' }, [p.author ? `by ${p.author}` : null, p.events?.length ? `listens to ${p.events.join(', ')}` : 'listens to no events'].filter(Boolean).join(' · ')),
        globals.length && can.edit() ? h('div', { class: 'action-list' }, globals.map((a) => actionControl(a, []))) : null,
        can.admin()
          ? h(
              'div',
              { class: 'row-actions' },
              h('button', { type: 'button', class: 'secondary', onclick: () => act('PUT', `/plugins/${p.id}/${p.enabled ? 'disable' : 'enable'}`, `${p.enabled ? 'Disabled' : 'Enabled'} ${p.name}.`) }, p.enabled ? 'Disable' : 'Enable'),
              h(
                'button',
                { type: 'button', class: 'danger', onclick: () => (window.confirm(`Remove ${p.name} with its settings and storage?`) ? act('DELETE', `/plugins/${p.id}`, `Removed ${p.name}.`) : undefined) },
                'Remove',
              ),
            )
          : null,
      ),
    );
  }
  fill(
    body,
    plugins.length ? list : h('p', { class: 'empty card' }, can.admin() ? 'No plugins yet. Install one below from a URL or a .lua file on the server.' : 'No plugins are installed.'),
    can.admin() ? installForm(() => load(body)) : null,
  );
}

function installForm(reload) {
  const source = h('input', { id: 'plugin-source', required: true, autocomplete: 'off', placeholder: 'https://example.org/plugin.lua' });
  const form = h('form', { class: 'form card' }, h('h2', {}, 'Install a plugin'), field('Source', source, 'A URL, or the absolute path of a .lua file on the server. Installing approves the permissions it declares.'), h('button', { type: 'submit' }, 'Install'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    let plugin;
    try {
      plugin = await api('POST', '/plugins', { source: source.value.trim() });
    } catch (err) {
      announceError(err, 'Could not install');
      source.focus();
      return;
    }
    source.value = '';
    await reload().catch(() => undefined);
    announce(`Installed ${plugin.name} ${plugin.version}.`);
  });
  return form;
}
