// Plugin UI actions (companion §8.11): buttons a plugin adds to clip details (card actions and
// lightbox buttons, offered when the clip's type and size fit) and to the Plugins screen (global
// actions). An action with options gets a small form built from its field list.
import { api } from './api.js';
import { h, field, checkbox } from './dom.js';
import { announce, announceError, can, clipsChanged } from './shared.js';

/** Whether an action offers itself for a clip: file_types (exact or type/*) and max_size. */
export function fits(action, clip) {
  const types = Array.isArray(action.file_types) ? action.file_types : [];
  const typeOk = !types.length || types.some((t) => (t.endsWith('/*') ? clip.content_type.startsWith(t.slice(0, -1)) : t === clip.content_type));
  const sizeOk = typeof action.max_size !== 'number' || action.max_size <= 0 || clip.size <= action.max_size;
  return typeOk && sizeOk;
}

export async function loadActions() {
  return api('GET', '/plugins/actions').catch(() => ({}));
}

/** The actions for one clip, or null when none applies (or the key may not run them). */
export function clipActionSection(actions, clip, onResult) {
  if (!can.edit()) return null;
  const seen = new Set();
  const list = [...(actions.card_actions ?? []), ...(actions.lightbox_buttons ?? [])].filter((a) => {
    const k = `${a.plugin_id}/${a.id}`;
    if (seen.has(k) || !fits(a, clip)) return false;
    seen.add(k);
    return true;
  });
  if (!list.length) return null;
  return h('section', { class: 'dialog-section', 'aria-label': 'Plugin actions' }, h('h3', {}, 'Plugin actions'), h('div', { class: 'action-list' }, list.map((a) => actionControl(a, [clip.id], onResult))));
}

function optionField(opt) {
  const id = `opt-${opt.id}`;
  const attrs = { id, name: opt.id, required: Boolean(opt.required) };
  switch (opt.type) {
    case 'checkbox':
      return checkbox(opt.label, { ...attrs, required: false, checked: opt.default === true || opt.default === 'true' });
    case 'select': {
      const select = h('select', attrs, (opt.choices ?? []).map((c) => h('option', { value: String(c.value) }, c.label ?? String(c.value))));
      if (opt.default !== undefined) select.value = String(opt.default);
      return field(opt.label, select);
    }
    case 'range':
      return field(opt.label, h('input', { ...attrs, type: 'range', min: opt.min, max: opt.max, step: opt.step, value: opt.default }));
    default:
      return field(opt.label, h('input', { ...attrs, type: opt.type === 'password' ? 'password' : 'text', value: opt.default }));
  }
}

function readOptions(form, options) {
  const values = {};
  for (const opt of options) {
    const el = form.querySelector(`[name="${CSS.escape(opt.id)}"]`);
    if (!el) continue;
    if (opt.type === 'checkbox') values[opt.id] = el.checked;
    else if (opt.type === 'range') values[opt.id] = Number(el.value);
    else if (el.value !== '') values[opt.id] = el.value;
  }
  return values;
}

/** A button, or for actions with options a folded form, that runs the action. */
export function actionControl(action, clipIds, onResult = () => {}) {
  const run = async (options) => {
    let result;
    try {
      result = await api('POST', `/plugins/${action.plugin_id}/actions/${encodeURIComponent(action.id)}`, { clip_ids: clipIds, options });
    } catch (e) {
      announceError(e, `${action.label} failed`);
      return;
    }
    if (result && result.success === false) {
      announce(`${action.label} failed: ${result.error ?? 'the plugin gave no reason'}`, 'error');
      return;
    }
    if (action.async) announce(`${action.label} started; it runs in the background.`);
    else announce(result?.result_clip_id ? `${action.label} made a new clip.` : `${action.label} done.`);
    clipsChanged();
    onResult(result ?? {});
  };
  const title = `${action.label} (${action.plugin_name})`;
  const options = Array.isArray(action.options) ? action.options : [];
  if (!options.length) return h('button', { type: 'button', class: 'secondary', title, onclick: () => run({}) }, action.label);
  const form = h('form', { class: 'form action-form' }, options.map(optionField), h('button', { type: 'submit' }, `Run ${action.label}`));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run(readOptions(form, options));
  });
  return h('details', { class: 'action-details' }, h('summary', { title }, action.label), form);
}
