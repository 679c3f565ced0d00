// The lightbox's side panels (companion §6.5): the info panel (E or F2) with the resource's
// size, dimensions, type, dates, owner, category, counts and hash, and its name and description
// editable in place; and the quick-tag panel (T) with the nine most recently used tags on keys
// 1–9 (green: the resource has the tag; grey: it has not), a tag search on 0, and a click or
// key toggling the tag. Recent tags live in browser storage. The panels follow the lightbox's
// lightbox:show events, so they always describe the resource on screen.
(() => {
  'use strict';

  const RECENT_KEY = 'stacks-lightbox-recent-tags';
  let dialog = null;
  let current = null; // { id, record }
  let panel = null; // 'info' | 'tags' | null
  let ticket = 0;

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') node.textContent = v;
      else if (k === 'value') node.value = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  };

  async function post(url, body) {
    const res = await fetch(url, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
    return data;
  }

  const recent = () => {
    try {
      const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
      return Array.isArray(list) ? list.filter((t) => t && typeof t.id === 'number' && typeof t.name === 'string').slice(0, 9) : [];
    } catch {
      return [];
    }
  };
  const remember = (tag) => localStorage.setItem(RECENT_KEY, JSON.stringify([tag, ...recent().filter((t) => t.id !== tag.id)].slice(0, 9)));

  const bytes = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`);
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

  function aside() {
    let node = dialog.querySelector('.lightbox-panel');
    if (!node) {
      node = el('aside', { class: 'lightbox-panel', 'aria-label': 'Resource panel', 'data-testid': 'lightbox-panel' });
      dialog.querySelector('.lightbox-frame').append(node);
    }
    return node;
  }

  function status(text) {
    const s = dialog.querySelector('.lightbox-panel [role="status"]');
    if (s) s.textContent = text;
  }

  /** A text field saved on Enter or when it loses focus, through the inline-edit endpoint. */
  function editable(label, field, value, multiline) {
    const input = multiline ? el('textarea', { rows: 3, name: field, value }) : el('input', { name: field, value });
    let saved = value;
    const save = async () => {
      if (input.value === saved || !current) return;
      try {
        await post(`/v1/resource/edit${field}?id=${current.id}`, { [field]: input.value });
        saved = input.value;
        if (field === 'Name') dialog.querySelector('.lightbox-title').textContent = input.value;
        status(`${label} saved.`);
      } catch (e) {
        status(`${label} not saved: ${e.message}`);
      }
    };
    input.addEventListener('change', save);
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' && !multiline) {
        ev.preventDefault();
        save();
      }
    });
    return el('label', { class: 'field' }, el('span', { text: label }), input);
  }

  function renderInfo(r) {
    const rows = [
      ['Size', bytes(r.FileSize || 0)],
      ['Dimensions', r.Width && r.Height ? `${r.Width} × ${r.Height}` : '—'],
      ['Type', r.ContentType || '—'],
      ['Created', when(r.CreatedAt)],
      ['Updated', when(r.UpdatedAt)],
      ['Owner', r.Owner ? r.Owner.Name : '—'],
      ['Category', r.resourceCategory ? r.resourceCategory.Name : r.Category || '—'],
      ['Tags', String((r.Tags || []).length)],
      ['Notes', String((r.Notes || []).length)],
      ['Groups', String((r.Groups || []).length)],
      ['Hash', r.Hash || '—'],
    ];
    const list = el('dl', { class: 'lightbox-info' });
    for (const [k, v] of rows) list.append(el('dt', { text: k }), el('dd', { text: v }));
    return [el('h3', { text: 'Info' }), editable('Name', 'Name', r.Name || '', false), editable('Description', 'Description', r.Description || '', true), list];
  }

  function renderTags(r) {
    const has = new Set((r.Tags || []).map((t) => t.ID));
    const slots = el('ol', { class: 'quick-tags', 'aria-label': 'Recent tags, keys 1 to 9' });
    recent().forEach((t, i) => {
      const on = has.has(t.id);
      slots.append(el('li', {}, el('button', { type: 'button', class: `quick-tag ${on ? 'on' : 'off'}`, 'aria-pressed': on ? 'true' : 'false', 'data-slot': String(i + 1), onclick: () => toggle(t) }, el('kbd', { text: String(i + 1) }), ` ${t.name}`)));
    });
    const search = el('input', { type: 'search', name: 'tag-search', placeholder: 'Find a tag (0)', 'aria-label': 'Find a tag to add', autocomplete: 'off' });
    const found = el('ul', { class: 'quick-tag-results' });
    let timer = null;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const q = search.value.trim();
        if (!q) return found.replaceChildren();
        const rows = await window.stacksPickerRows('/v1/tags/suggest', q).catch(() => []);
        found.replaceChildren(...rows.slice(0, 8).map((t) => el('li', {}, el('button', { type: 'button', class: 'link', onclick: () => toggle({ id: Number(t.id), name: t.name }) }, has.has(Number(t.id)) ? `Remove ${t.name}` : `Add ${t.name}`))));
      }, 200);
    });
    const current = (r.Tags || []).map((t) => t.Name).join(', ');
    return [
      el('h3', { text: 'Quick tags' }),
      el('p', { class: 'hint', text: current ? `Tagged: ${current}` : 'No tags yet.' }),
      recent().length ? slots : el('p', { class: 'hint', text: 'Tags you add here come back on keys 1–9.' }),
      search,
      found,
    ];
  }

  async function toggle(tag) {
    if (!current) return;
    const has = (current.record.Tags || []).some((t) => t.ID === tag.id);
    try {
      await post(`/v1/resources/${has ? 'removeTags' : 'addTags'}`, { ID: [Number(current.id)], EditedId: [tag.id] });
      remember(tag);
      await load(current.id);
      status(`${has ? 'Removed' : 'Added'} ${tag.name}.`);
    } catch (e) {
      status(`Not changed: ${e.message}`);
    }
  }

  function render() {
    if (!dialog) return;
    const node = aside();
    node.hidden = !panel || !current?.record;
    dialog.classList.toggle('with-panel', !node.hidden);
    if (node.hidden) return;
    const focused = document.activeElement && node.contains(document.activeElement) ? document.activeElement.getAttribute('name') : null;
    node.replaceChildren(...(panel === 'info' ? renderInfo(current.record) : renderTags(current.record)), el('p', { class: 'hint', role: 'status', 'aria-live': 'polite' }));
    if (focused) node.querySelector(`[name="${focused}"]`)?.focus();
  }

  async function load(id) {
    const mine = ++ticket;
    const res = await fetch(`/v1/resource?id=${encodeURIComponent(id)}`, { headers: { accept: 'application/json' } });
    if (mine !== ticket) return;
    current = { id, record: res.ok ? await res.json() : null };
    render();
  }

  function setPanel(which) {
    panel = panel === which ? null : which;
    if (panel && current && !current.record) load(current.id);
    else render();
    if (panel === 'tags') aside().querySelector('.quick-tag, input')?.focus();
  }

  document.addEventListener('lightbox:show', (ev) => {
    if (!dialog) {
      dialog = ev.target;
      const bar = dialog.querySelector('.lightbox-bar');
      const close = bar.querySelector('.lightbox-close');
      close.before(
        el('button', { type: 'button', class: 'secondary lightbox-info-toggle', title: 'Info (E)', 'aria-label': 'Info (E)', onclick: () => setPanel('info') }, 'Info'),
        el('button', { type: 'button', class: 'secondary lightbox-tags-toggle', title: 'Quick tags (T)', 'aria-label': 'Quick tags (T)', onclick: () => setPanel('tags') }, 'Tags'),
      );
      dialog.addEventListener('keydown', onKey);
    }
    current = { id: ev.detail.id, record: null };
    if (panel) load(ev.detail.id);
  });

  function onKey(ev) {
    const t = ev.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'e' || ev.key === 'E' || ev.key === 'F2') {
      ev.preventDefault();
      setPanel('info');
    } else if (ev.key === 't' || ev.key === 'T') {
      ev.preventDefault();
      setPanel('tags');
    } else if (panel === 'tags' && /^[1-9]$/.test(ev.key)) {
      const tag = recent()[Number(ev.key) - 1];
      if (tag) {
        ev.preventDefault();
        ev.stopPropagation();
        toggle(tag);
      }
    } else if (panel === 'tags' && ev.key === '0') {
      // 0 also fits the image to the window (the lightbox's own key); here it finds a tag too.
      ev.preventDefault();
      aside().querySelector('input[name="tag-search"]')?.focus();
    }
  }
})();
