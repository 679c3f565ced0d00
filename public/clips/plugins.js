// Plugins: the installed plugins (admins enable and disable them) and their UI actions — the
// global ones on this screen, the clip ones in a clip's dialog (detail.js). An action's form
// comes from its declared options; its answer is said in words, a dialog text shown as text.
import { api } from './api.js';
import { h, fill, field, checkbox } from './dom.js';
import { announce, announceError, can, clipsChanged, capitalise } from './shared.js';
import { actButton, listScreen } from './screen.js';

/** The form control of one declared option; `read()` gives the value to send. */
function optionControl(action, option) {
  const id = `opt-${action.plugin_id}-${action.id}-${option.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (option.type === 'checkbox') {
    const box = checkbox(option.label, { id, checked: option.default === true });
    return { node: box, read: () => box.querySelector('input').checked };
  }
  if (option.type === 'select') {
    const select = h('select', { id }, ...(option.choices ?? []).map((c) => h('option', { value: String(c.value), selected: c.value === option.default }, c.label)));
    return { node: field(option.label, select), read: () => (option.choices ?? []).find((c) => String(c.value) === select.value)?.value };
  }
  const attrs = { id, required: option.required === true };
  if (option.type === 'range') Object.assign(attrs, { type: 'number', min: option.min, max: option.max, step: option.step ?? 'any' });
  else attrs.type = option.type === 'password' ? 'password' : 'text';
  if (option.default !== undefined) attrs.value = String(option.default);
  const input = h('input', attrs);
  return {
    node: field(option.label, input),
    read: () => (input.value === '' ? undefined : option.type === 'range' ? Number(input.value) : input.value),
  };
}

/** What happened, in words; a result clip is named, a dialog's text shown in `out`. */
function report(action, result, out) {
  if (!result.success) {
    announce(`${action.label} failed: ${result.error ?? 'the plugin reported a failure'}`, 'error');
    return;
  }
  const made = result.result_clip_id ? ` It made clip ${result.result_clip_id}.` : '';
  announce(`${action.label}: done.${made}`);
  if (result.result_clip_id) clipsChanged();
  if (out && result.modal) {
    fill(out, h('div', { class: 'card plugin-modal', role: 'region', 'aria-label': result.modal.title || action.label }, h('h3', {}, result.modal.title || action.label), h('pre', { class: 'plugin-modal-text' }, String(result.modal.content ?? ''))));
  }
}

/** A button (and the action's form, when it has options) that runs the action on `clipIds`. */
export function actionForm(action, clipIds, out) {
  const controls = (action.options ?? []).map((o) => ({ option: o, ...optionControl(action, o) }));
  const button = h('button', { type: 'submit', class: 'secondary' }, action.label);
  const form = h('form', { class: controls.length ? 'form plugin-action' : 'inline-row plugin-action', 'aria-label': `${action.label} (${action.plugin_name})` }, ...controls.map((c) => c.node), button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const options = {};
    for (const c of controls) {
      const v = c.read();
      if (v !== undefined) options[c.option.id] = v;
    }
    button.disabled = true;
    announce(`${action.label}: running…`);
    try {
      const result = await api('POST', `/plugins/${action.plugin_id}/actions/${encodeURIComponent(action.id)}`, { clip_ids: clipIds, options });
      if (action.async && result.success) announce(`${action.label}: started; it runs in the background.`);
      else report(action, result, out);
    } catch (err) {
      announceError(err, `${action.label} did not run`);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** Whether a clip action applies to this clip (its declared file types and size limit). */
function fits(action, clip) {
  if (action.max_size !== undefined && clip.size > action.max_size) return false;
  const types = action.file_types ?? [];
  if (!types.length) return true;
  return types.some((t) => (t.endsWith('/*') ? clip.content_type.startsWith(t.slice(0, -1)) : t === clip.content_type));
}

/** The section of a clip's dialog with the plugin buttons that apply to it (null when none). */
export async function clipActions(clip) {
  if (!can.edit()) return null;
  const all = await api('GET', '/plugins/actions').catch(() => null);
  if (!all) return null;
  const list = [...all.lightbox_buttons, ...all.card_actions].filter((a) => fits(a, clip));
  const seen = new Set();
  const unique = list.filter((a) => {
    const k = `${a.plugin_id}/${a.id}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (!unique.length) return null;
  const out = h('div', { class: 'plugin-output' });
  return h('section', { class: 'dialog-section', 'aria-label': 'Plugin actions' }, h('h3', {}, 'Plugin actions'), ...unique.map((a) => actionForm(a, [clip.id], out)), out);
}

export function renderPlugins() {
  return listScreen({ id: 'plugins', title: 'Plugins', hint: 'Lua plugins react to new clips, add buttons and run on schedules. Admins install them through the API (see docs/clip-plugins.md).', load });
}

async function load(screen) {
  const [{ plugins }, actions] = await Promise.all([api('GET', '/plugins'), api('GET', '/plugins/actions')]);
  const rows = plugins.map((p) => {
    const enable = !p.enabled;
    const toggle = can.admin() ? actButton(screen, p.enabled ? 'Disable' : 'Enable', { class: 'secondary' }, { method: 'PUT', path: `/plugins/${p.id}/${enable ? 'enable' : 'disable'}`, done: `${p.name} ${enable ? 'enabled' : 'disabled'}.`, failed: `Could not ${enable ? 'enable' : 'disable'} ${p.name}` }) : null;
    return h(
      'li',
      { class: 'card plugin' },
      h('h2', {}, `${p.name} `, h('span', { class: 'hint' }, p.version)),
      p.description ? h('p', {}, p.description) : null,
      h('p', { class: 'hint' }, `${capitalise(p.status === 'error' ? 'stopped after errors' : p.status)}${p.author ? ` · by ${p.author}` : ''}${p.events.length ? ` · listens to ${p.events.join(', ')}` : ''}`),
      toggle,
    );
  });
  const out = h('div', { class: 'plugin-output' });
  const globals = can.edit() ? actions.global_actions.map((a) => actionForm(a, [], out)) : [];
  return [
    plugins.length ? h('ul', { class: 'plugin-list', 'aria-label': 'Installed plugins' }, ...rows) : h('p', { class: 'empty card' }, 'No plugins are installed.'),
    globals.length ? h('section', { class: 'card', 'aria-labelledby': 'global-actions-title' }, h('h2', { id: 'global-actions-title' }, 'Actions'), ...globals, out) : null,
  ];
}
