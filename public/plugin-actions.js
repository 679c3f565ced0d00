// Plugin action buttons (library-plugins.md §17): copies the card menu into every list card,
// shows the bulk buttons while something is selected, asks for parameters in the action's
// dialog, runs the action through POST /v1/jobs/action/run and says what happened in the
// status line; an asynchronous run is followed on /v1/jobs/events until its jobs finish.
(() => {
  if (window.mahPluginActions) return;
  window.mahPluginActions = true;

  const status = () => document.querySelector('.plugin-action-status');
  const say = (text, bad) => {
    const s = status();
    if (!s) return;
    s.textContent = text;
    s.classList.toggle('error', Boolean(bad));
  };
  const selected = () => [...document.querySelectorAll('.select-box:checked')].map((b) => Number(b.value));

  // Card menus: one copy per card or table row that has a selection box (its value is the
  // entity id). List pages offer card actions without filtering (library-plugins.md §17.3).
  const template = document.getElementById('plugin-card-actions');
  if (template) {
    for (const box of document.querySelectorAll('.card .select-box, tr .select-box')) {
      const menu = template.content.cloneNode(true);
      for (const b of menu.querySelectorAll('[data-plugin-action]')) b.dataset.entityIds = box.value;
      (box.closest('.card') || box.closest('td')).appendChild(menu);
    }
  }

  // The bulk region follows the selection, which Alpine may change without a change event.
  const bulk = document.querySelector('.plugin-bulk-actions');
  if (bulk) {
    const sync = () => {
      bulk.hidden = selected().length === 0;
    };
    document.addEventListener('change', sync);
    document.addEventListener('click', () => setTimeout(sync, 0));
    sync();
  }

  function paramValue(wrap) {
    const name = wrap.dataset.param;
    const type = wrap.dataset.paramType;
    if (type === 'info') return undefined;
    if (type === 'boolean') return wrap.querySelector('input[type="checkbox"]').checked;
    if (type === 'entity_ref') {
      const ids = [...wrap.querySelectorAll(`input[type="hidden"][name="${CSS.escape(name)}"]`)].map((i) => i.value).filter((v) => v !== '').map(Number);
      return wrap.dataset.multi ? ids : ids.length ? ids[0] : undefined;
    }
    const input = wrap.querySelector('[name]');
    const raw = input ? input.value : '';
    if (raw === '') return undefined;
    return type === 'number' ? Number(raw) : raw;
  }

  // show_when (§17.5): every controller present and equal (numbers numerically, arrays any-of).
  function visible(form, wrap) {
    if (!wrap.dataset.showWhen) return true;
    const conditions = JSON.parse(wrap.dataset.showWhen);
    return Object.entries(conditions).every(([controller, expected]) => {
      const c = form.querySelector(`[data-param="${CSS.escape(controller)}"]`);
      const v = c && visible(form, c) ? paramValue(c) : undefined;
      if (v === undefined) return false;
      return (Array.isArray(expected) ? expected : [expected]).some((e) => (typeof e === 'number' ? typeof v === 'number' && v === e : v === e));
    });
  }

  function refreshVisibility(form) {
    for (const wrap of form.querySelectorAll('[data-param]')) wrap.hidden = !visible(form, wrap);
  }

  /** The name the page shows for an entity: the detail page's title, or a card's selection box. */
  function nameOf(id, button) {
    const box = document.querySelector(`.select-box[value="${id}"]`);
    const label = box?.getAttribute('aria-label');
    if (label) return label.replace(/^Select /, '');
    if (button.closest('[data-testid="plugin-actions"]')) return document.getElementById('page-title')?.textContent || `Item ${id}`;
    return `Item ${id}`;
  }

  /**
   * entity_ref parameters of the action's own entity start with the trigger, the selection or
   * both (§17.2 default); the person can change them with the picker.
   */
  function prefill(form, button) {
    const trigger = button.dataset.entityIds ? button.dataset.entityIds.split(',').map(Number) : selected();
    for (const wrap of form.querySelectorAll('[data-param-type="entity_ref"]')) {
      const picker = wrap.querySelector('.picker');
      if (!picker || !window.Alpine || wrap.dataset.refEntity !== button.dataset.entity) continue;
      const mode = wrap.dataset.refDefault;
      let ids = mode === 'trigger' ? trigger : mode === 'selection' ? selected() : mode === 'both' ? [...new Set([...trigger, ...selected()])] : [];
      if (!wrap.dataset.multi) ids = ids.slice(0, 1);
      window.Alpine.$data(picker).selected = ids.map((id) => ({ id, name: nameOf(id, button) }));
    }
  }

  function collect(form) {
    const params = {};
    for (const wrap of form.querySelectorAll('[data-param]')) {
      if (!visible(form, wrap)) continue;
      const v = paramValue(wrap);
      if (v !== undefined) params[wrap.dataset.param] = v;
    }
    return params;
  }

  function follow(label, ids) {
    const jobs = new Map(ids.map((id) => [id, null]));
    const source = new EventSource('/v1/jobs/events');
    const show = () => {
      const known = [...jobs.values()].filter(Boolean);
      const done = known.filter((j) => j.status === 'completed' || j.status === 'failed');
      if (ids.length === 1 && known.length === 1) {
        const j = known[0];
        const text = j.status === 'completed' ? `completed — ${j.message}` : j.status === 'failed' ? `failed — ${j.message}` : `${j.progress}% — ${j.message}`;
        say(`${label}: ${text}`, j.status === 'failed');
      } else {
        const failed = done.filter((j) => j.status === 'failed').length;
        say(`${label}: ${done.length} of ${ids.length} jobs finished${failed ? `, ${failed} failed` : ''}`, failed > 0);
      }
      if (done.length === ids.length) source.close();
    };
    const take = (job) => {
      if (job && jobs.has(job.id)) {
        jobs.set(job.id, job);
        show();
      }
    };
    source.addEventListener('init', (e) => {
      for (const job of JSON.parse(e.data).actionJobs || []) take(job);
    });
    for (const name of ['action_added', 'action_updated']) source.addEventListener(name, (e) => take(JSON.parse(e.data).job));
  }

  /** Runs the action; answers the field errors to show in its dialog, or null when done. */
  async function run(button, params) {
    const ids = button.dataset.entityIds ? button.dataset.entityIds.split(',').map(Number) : selected();
    const label = button.dataset.label;
    if (ids.length === 0) {
      say(`${label}: select something first.`, true);
      return null;
    }
    say(`${label}: running…`);
    let res;
    let body = {};
    try {
      res = await fetch('/v1/jobs/action/run', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ plugin: button.dataset.plugin, action: button.dataset.pluginAction, entity_ids: ids, params }),
      });
      body = await res.json().catch(() => ({}));
    } catch {
      say(`${label}: the server could not be reached.`, true);
      return null;
    }
    if (res.status === 400 && Array.isArray(body.errors)) {
      say(`${label}: ${body.errors.map((e) => e.message).join('; ')}`, true);
      return body.errors.map((e) => e.message);
    }
    if (!res.ok) {
      say(`${label}: ${body.error || `failed (${res.status})`}`, true);
      return null;
    }
    if (res.status === 202) {
      const jobs = body.job_ids || [body.job_id];
      say(`${label}: started ${jobs.length === 1 ? 'a job' : `${jobs.length} jobs`}…`);
      follow(label, jobs);
      return null;
    }
    if (Array.isArray(body.results)) {
      const failed = body.results.filter((r) => !r.success);
      const why = failed.map((r) => r.message).filter(Boolean);
      say(`${label}: ${body.results.length - failed.length} of ${body.results.length} succeeded${why.length ? ` — ${why.join('; ')}` : ''}`, failed.length > 0);
      return null;
    }
    say(`${label}: ${body.message || (body.success ? 'done' : 'failed')}`, !body.success);
    // Only a path on this site: a plugin cannot send the viewer elsewhere.
    if (typeof body.redirect === 'string' && /^\/(?![/\\])/.test(body.redirect)) window.location.href = body.redirect;
    return null;
  }

  let current = null;
  document.addEventListener('click', async (e) => {
    const cancel = e.target.closest('[data-plugin-action-cancel]');
    if (cancel) {
      cancel.closest('dialog').close();
      return;
    }
    const button = e.target.closest('button[data-plugin-action]');
    if (!button) return;
    button.closest('details.plugin-card-menu')?.removeAttribute('open');
    if (button.dataset.dialog) {
      const dialog = document.getElementById(button.dataset.dialog);
      current = button;
      const errors = dialog.querySelector('.plugin-action-errors');
      errors.hidden = true;
      prefill(dialog.querySelector('form'), button);
      refreshVisibility(dialog.querySelector('form'));
      dialog.showModal();
      return;
    }
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    button.disabled = true;
    try {
      await run(button, {});
    } finally {
      button.disabled = false;
    }
  });

  document.addEventListener('input', (e) => {
    const form = e.target.closest('form[data-plugin-action-form]');
    if (form) refreshVisibility(form);
  });
  document.addEventListener('change', (e) => {
    const form = e.target.closest('form[data-plugin-action-form]');
    if (form) refreshVisibility(form);
  });

  document.addEventListener('submit', async (e) => {
    const form = e.target.closest('form[data-plugin-action-form]');
    if (!form || !current) return;
    e.preventDefault();
    const button = current;
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    const dialog = form.closest('dialog');
    const submit = form.querySelector('button[type="submit"]');
    submit.disabled = true;
    try {
      const errors = await run(button, collect(form));
      const box = dialog.querySelector('.plugin-action-errors');
      if (errors) {
        box.textContent = errors.join(' ');
        box.hidden = false;
      } else {
        dialog.close();
        button.focus();
      }
    } finally {
      submit.disabled = false;
    }
  });
})();
