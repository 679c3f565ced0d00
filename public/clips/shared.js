// State every screen shares: what the signed-in key may do, and the live region that says what
// happened after each action.
import { ApiError } from './api.js';

/** Filled by app.js after sign-in by probing (the API has no "who am I"). */
export const caller = { role: 'viewer', scoped: false };
export const can = {
  edit: () => caller.role !== 'viewer',
  admin: () => caller.role === 'admin',
};

export function capitalise(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

let statusTimer;
export function announce(message, kind = 'ok') {
  const line = document.getElementById('status');
  clearTimeout(statusTimer);
  line.className = `status-line ${kind}`;
  line.textContent = message;
  if (kind === 'ok') statusTimer = setTimeout(() => (line.textContent = ''), 10000);
}

export function announceError(e, what = '') {
  const reason = e instanceof ApiError ? capitalise(e.message) : `Something went wrong: ${e.message}`;
  announce(what ? `${what}: ${reason}` : reason, 'error');
}

/** Tells the clip list (and the tag tree) that clips changed elsewhere, e.g. after uploads. */
export function clipsChanged() {
  document.dispatchEvent(new CustomEvent('clips:changed'));
}

/** Plural helper for messages: plural(3, 'clip') → "3 clips". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
