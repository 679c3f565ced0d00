// The clip service's web interface: sign-in with an API key, then one screen per hash route.
// The key lives in sessionStorage only (see api.js); nothing is rendered on the server.
import { api, session, whenUnauthorized, ApiError } from './api.js';
import { h, fill, field } from './dom.js';
import { renderBrowse } from './browse.js';
import { renderDedup } from './dedup.js';
import { renderWatch } from './watch.js';
import { renderServe } from './serve.js';
import { renderKeys } from './keys.js';
import { renderBackup } from './backup.js';
import { renderPlugins } from './plugins.js';
import { installUploads } from './upload.js';
import { caller, announce, can, capitalise } from './shared.js';

const SCREENS = {
  clips: { title: 'Clips', render: renderBrowse },
  dedup: { title: 'Duplicates', render: renderDedup },
  watch: { title: 'Watch folders', render: renderWatch },
  serve: { title: 'Serving', render: renderServe },
  keys: { title: 'API keys', render: renderKeys },
  plugins: { title: 'Plugins', render: renderPlugins },
  backup: { title: 'Backup', render: renderBackup },
};

const main = document.getElementById('main');

async function probeRole(key) {
  // 200 from an admin route means admin; the role check of a write route runs before its body
  // is read, so an empty bulk request answers 403 to a viewer and 400 to an editor (no change).
  const isAdmin = await api('GET', '/keys', undefined, { key, raw: true }).then(
    () => true,
    () => false,
  );
  let role = 'viewer';
  if (isAdmin) role = 'admin';
  else {
    const res = await fetch('/api/v1/clips/bulk/cancel-expire', { method: 'POST', headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 403 && res.status !== 401) role = 'editor';
  }
  const dedup = await fetch('/api/v1/dedup', { headers: { Authorization: `Bearer ${key}` } });
  return { role, scoped: dedup.status === 403 };
}

function showSignIn(message) {
  document.getElementById('nav').hidden = true;
  document.getElementById('session').hidden = true;
  document.title = 'Sign in · Stacks Clips';
  const input = h('input', { type: 'password', name: 'key', id: 'key', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: 'svc_…' });
  const error = h('p', { class: 'error-banner', id: 'sign-in-error', role: 'alert', hidden: !message }, message ?? '');
  const form = h(
    'form',
    { class: 'form card sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, 'Sign in to your clips'),
    h('p', { class: 'hint' }, 'Paste an API key of this clip service. It stays in this browser tab only and is forgotten when the tab closes.'),
    error,
    field('API key', input, 'Made with "stacks clips key create" or by an admin.'),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = input.value.trim();
    try {
      await api('GET', '/tags', undefined, { key });
    } catch (err) {
      error.hidden = false;
      error.textContent = err instanceof ApiError && err.status === 401 ? 'That key was not accepted: it is unknown or revoked.' : `Could not sign in: ${err.message}`;
      input.focus();
      return;
    }
    Object.assign(caller, await probeRole(key));
    session.set(key);
    input.value = '';
    startSession();
    announce(`Signed in (${caller.role}${caller.scoped ? ', limited to one tag' : ''}).`);
  });
  fill(main, form);
  input.focus();
}

function startSession() {
  document.getElementById('nav').hidden = false;
  document.getElementById('session').hidden = false;
  document.getElementById('session-role').textContent = `${caller.role}${caller.scoped ? ' · scoped' : ''}`;
  // Key management answers admins only: other keys are not offered the screen.
  document.querySelector('#nav [data-screen="keys"]').hidden = !can.admin();
  route();
}

let rendering = 0;
export async function route() {
  if (!session.key) return showSignIn();
  const name = (location.hash.replace(/^#\/?/, '').split('?')[0] || 'clips').toLowerCase();
  const screen = SCREENS[name] ?? SCREENS.clips;
  const screenName = SCREENS[name] ? name : 'clips';
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.screen === screenName) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  document.title = `${screen.title} · Stacks Clips`;
  const ticket = ++rendering;
  main.dataset.screen = screenName;
  fill(main, h('p', { class: 'hint' }, 'Loading…'));
  try {
    const view = await screen.render();
    if (ticket === rendering) fill(main, view);
  } catch (e) {
    if (ticket === rendering) fill(main, h('p', { class: 'error-banner', role: 'alert' }, e instanceof ApiError ? capitalise(e.message) : `Could not load this screen: ${e.message}`));
  }
}

whenUnauthorized(() => {
  session.clear();
  showSignIn('Your key is no longer accepted (revoked or unknown). Sign in again.');
});

document.getElementById('sign-out').addEventListener('click', () => {
  session.clear();
  location.hash = '#/';
  showSignIn();
  announce('Signed out. The key was removed from this tab.');
});
window.addEventListener('hashchange', () => {
  route().then(() => main.focus({ preventScroll: true }));
});

installUploads();

if (session.key) {
  probeRole(session.key)
    .then((who) => Object.assign(caller, who))
    .then(startSession, () => showSignIn());
} else showSignIn();
