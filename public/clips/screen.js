// The skeleton the list screens (serve, watch, dedup, plugins) share: a titled section with a
// hint and a body that `load` fills from the API, reloaded after every change, each change
// said in the status line (or why it failed) with the focus put back where the person was.
import { api } from './api.js';
import { h, fill } from './dom.js';
import { announce, announceError } from './shared.js';

/**
 * Builds the screen: `refusal` (when it gives text) replaces the body for callers who may not
 * use it; `load(screen)` fetches and returns the body's children. The screen object handed to
 * `load` carries `body` and `reload()` for its actions.
 */
export async function listScreen({ id, title, hint, refusal, load }) {
  const titleId = `${id}-title`;
  const root = h('section', { class: 'screen', 'aria-labelledby': titleId }, h('h1', { id: titleId }, title));
  const refused = refusal?.();
  if (refused) {
    root.append(h('p', { class: 'card' }, refused));
    return root;
  }
  const body = h('div');
  const screen = {
    body,
    async reload() {
      fill(body, ...(await load(screen)));
    },
  };
  root.append(h('p', { class: 'hint' }, hint), body);
  await screen.reload();
  return root;
}

/**
 * One change from a button: the request, then the reloaded screen and `done` (text, or a
 * function of the answer) in the status line; a failure says `failed` and the reason and
 * changes nothing on screen. `focus` (a selector) is where the focus goes afterwards.
 */
export async function act(screen, { method, path, done, failed, focus }) {
  let answer;
  try {
    answer = await api(method, path);
  } catch (e) {
    announceError(e, failed);
    return;
  }
  await screen.reload().catch(() => undefined);
  announce(typeof done === 'function' ? done(answer) : done);
  if (focus) screen.body.querySelector(focus)?.focus();
}

/** A button running `act` on click. */
export function actButton(screen, label, attrs, change) {
  return h('button', { type: 'button', ...attrs, onclick: () => (change.confirm && !window.confirm(change.confirm) ? undefined : act(screen, change)) }, label);
}
