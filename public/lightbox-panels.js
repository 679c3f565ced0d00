// The lightbox's side panels (companion §6.5): the info panel (E or F2) with the resource's
// size, dimensions, type, dates, owner, category, counts and hash, its name and description
// editable in place, and the resource category's CustomLightbox template (or CustomSidebar);
// and the quick-tag panel (T; tabs on Z X C V B, described at TABS below) with a tag search
// on 0. Slot assignments and recent tags live in browser storage. The panels follow the
// lightbox's lightbox:show events, so they always describe the resource on screen.
(() => {
  'use strict';

  const RECENT_KEY = 'stacks-lightbox-recent-tags';
  const SLOTS_KEY = 'stacks-lightbox-quick-slots';
  const TAB_KEY = 'stacks-lightbox-quick-tab';
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
    const out = [el('h3', { text: 'Info' }), editable('Name', 'Name', r.Name || '', false), editable('Description', 'Description', r.Description || '', true), list];
    if (current.custom) {
      // Rendered by the server from the category's template (trusted authors, companion §5.2).
      const custom = el('section', { class: 'lightbox-custom', 'aria-label': 'Category details', 'data-testid': 'lightbox-custom' });
      custom.innerHTML = current.custom;
      out.push(custom);
    }
    return out;
  }

  // The quick-tag panel (companion §6.5): tabs QUICK 1–4 (keys Z X C V) of nine slots each, a
  // slot holding one or more tags, and RECENT (B) with the nine most recently used tags. Slots
  // sit in numpad order (7 8 9 on top) on keys 1–9; a press toggles the slot's tags (all on,
  // or all off when every one is on), holding it 400 ms opens the slot to toggle one of its
  // tags alone. Colours: green = all present, amber = some, grey = none.
  const TABS = [
    { key: 'z', label: 'Quick 1' },
    { key: 'x', label: 'Quick 2' },
    { key: 'c', label: 'Quick 3' },
    { key: 'v', label: 'Quick 4' },
    { key: 'b', label: 'Recent' },
  ];
  const RECENT_TAB = 4;
  const NUMPAD = [7, 8, 9, 4, 5, 6, 1, 2, 3];
  const HOLD_MS = 400;
  let tab = Number(localStorage.getItem(TAB_KEY)) || 0;
  let editing = false; // Edit slots mode: a slot press selects it for editing
  let editSlot = null; // 1–9
  let expanded = null; // the slot (1–9) opened by a hold

  const validTag = (t) => t && typeof t.id === 'number' && typeof t.name === 'string';
  function quickSlots() {
    let sets;
    try {
      sets = JSON.parse(localStorage.getItem(SLOTS_KEY) || '[]');
    } catch {
      sets = [];
    }
    return [0, 1, 2, 3].map((t) => [...Array(9)].map((_, i) => (Array.isArray(sets?.[t]?.[i]) ? sets[t][i].filter(validTag) : [])));
  }
  function saveSlot(n, tags) {
    const sets = quickSlots();
    sets[tab][n - 1] = tags;
    localStorage.setItem(SLOTS_KEY, JSON.stringify(sets));
  }
  /** The tags on key n (1–9) of the shown tab. */
  const slotTags = (n) => (tab === RECENT_TAB ? [recent()[n - 1]].filter(Boolean) : quickSlots()[tab][n - 1]);
  function stateOf(tags) {
    const has = new Set((current?.record?.Tags || []).map((t) => t.ID));
    const on = tags.filter((t) => has.has(t.id)).length;
    return on === 0 ? 'none' : on === tags.length ? 'all' : 'some';
  }

  // A slot pressed with the pointer: a short press toggles (on click), a hold expands.
  let holdTimer = null;
  let held = false;
  function holdStart(n) {
    clearTimeout(holdTimer);
    held = false;
    holdTimer = setTimeout(() => {
      held = true;
      expand(n);
    }, HOLD_MS);
  }
  const holdEnd = () => clearTimeout(holdTimer);

  function expand(n) {
    if (editing || slotTags(n).length < 2) return;
    expanded = n;
    render();
    aside().querySelector('.quick-slot-tags button')?.focus();
  }

  function pressSlot(n) {
    if (editing) {
      editSlot = n;
      render();
      aside().querySelector('input[name="tag-search"]')?.focus();
      return;
    }
    const tags = slotTags(n);
    if (tags.length) toggle(tags);
  }

  function renderTags(r) {
    const nodes = [el('h3', { text: 'Quick tags' })];
    const tabs = el('div', { role: 'tablist', 'aria-label': 'Quick-tag sets', class: 'quick-tabs' });
    TABS.forEach((t, i) => {
      tabs.append(
        el('button', { type: 'button', role: 'tab', id: `quick-tab-${i}`, 'aria-selected': i === tab ? 'true' : 'false', 'aria-controls': 'quick-tab-panel', tabindex: i === tab ? '0' : '-1', 'data-focus': `tab-${i}`, 'aria-keyshortcuts': t.key.toUpperCase(), onclick: () => selectTab(i), onkeydown: tabKeys }, `${t.label} `, el('kbd', { text: t.key.toUpperCase() })),
      );
    });
    nodes.push(tabs);
    const panelNode = el('div', { role: 'tabpanel', id: 'quick-tab-panel', 'aria-labelledby': `quick-tab-${tab}`, class: 'quick-tab-panel' });
    const names = (r.Tags || []).map((t) => t.Name).join(', ');
    panelNode.append(el('p', { class: 'hint', text: names ? `Tagged: ${names}` : 'No tags yet.' }));
    const grid = el('div', { class: 'quick-tags', role: 'group', 'aria-label': `${TABS[tab].label}: keys 1 to 9, hold to open a slot` });
    for (const n of NUMPAD) {
      const tags = slotTags(n);
      const state = tags.length ? stateOf(tags) : 'empty';
      const label = tags.length ? tags.map((t) => t.name).join(', ') : tab === RECENT_TAB ? '—' : 'empty';
      const attrs = { type: 'button', class: `quick-tag ${state}${editing && editSlot === n ? ' selected' : ''}`, 'data-slot': String(n), 'data-state': state, 'data-focus': `slot-${n}`, 'aria-keyshortcuts': String(n) };
      if (editing) attrs['aria-pressed'] = editSlot === n ? 'true' : 'false';
      else if (tags.length) attrs['aria-pressed'] = state === 'all' ? 'true' : state === 'some' ? 'mixed' : 'false';
      else attrs.disabled = true;
      const slot = el('button', attrs, el('kbd', { text: String(n) }), el('span', { class: 'quick-tag-names', text: label }));
      slot.addEventListener('pointerdown', () => holdStart(n));
      slot.addEventListener('pointerup', holdEnd);
      slot.addEventListener('pointerleave', holdEnd);
      slot.addEventListener('click', () => {
        if (held) {
          held = false;
          return;
        }
        pressSlot(n);
      });
      grid.append(slot);
    }
    panelNode.append(grid);
    if (expanded) {
      const tags = slotTags(expanded);
      const box = el('div', { class: 'quick-slot-tags', role: 'group', 'aria-label': `Tags of slot ${expanded}: keys 1 to ${tags.length}, Escape closes` });
      tags.forEach((t, i) => {
        const on = stateOf([t]) === 'all';
        box.append(el('button', { type: 'button', class: `quick-tag ${on ? 'all' : 'none'}`, 'aria-pressed': on ? 'true' : 'false', 'data-focus': `expanded-${i}`, onclick: () => toggle([t]) }, el('kbd', { text: String(i + 1) }), ` ${t.name}`));
      });
      box.append(el('button', { type: 'button', class: 'secondary', 'data-focus': 'expanded-close', onclick: collapse }, 'Done'));
      panelNode.append(box);
    }
    if (tab !== RECENT_TAB) {
      panelNode.append(el('button', { type: 'button', class: 'secondary quick-edit', 'aria-pressed': editing ? 'true' : 'false', 'data-focus': 'edit', onclick: () => setEditing(!editing) }, editing ? 'Done editing slots' : 'Edit slots'));
      if (editing) panelNode.append(slotEditor());
    } else if (!recent().length) {
      panelNode.append(el('p', { class: 'hint', text: 'Tags you add here come back on keys 1–9.' }));
    }
    panelNode.append(...tagSearch(r));
    nodes.push(panelNode);
    return nodes;
  }

  function slotEditor() {
    if (!editSlot) return el('p', { class: 'hint', text: 'Choose a slot (or press its key), then find tags to put in it.' });
    const tags = slotTags(editSlot);
    const list = el('ul', { class: 'quick-slot-edit', 'aria-label': `Tags in slot ${editSlot}` });
    tags.forEach((t, i) =>
      list.append(
        el(
          'li',
          {},
          el('span', { class: 'tag', text: t.name }),
          el('button', { type: 'button', class: 'link', 'data-focus': `slot-remove-${i}`, onclick: () => takeOut(t) }, `Take ${t.name} out of slot ${editSlot}`),
        ),
      ),
    );
    return el('div', { class: 'quick-slot-editor' }, el('p', { class: 'hint', text: tags.length ? `Slot ${editSlot} holds:` : `Slot ${editSlot} is empty; find tags below to put in it.` }), tags.length ? list : null);
  }

  function takeOut(tag) {
    saveSlot(editSlot, slotTags(editSlot).filter((t) => t.id !== tag.id));
    render();
    status(`${tag.name} taken out of slot ${editSlot}.`);
  }

  function tagSearch(r) {
    const has = new Set((r.Tags || []).map((t) => t.ID));
    const assigning = editing && editSlot && tab !== RECENT_TAB;
    const search = el('input', { type: 'search', name: 'tag-search', 'data-focus': 'search', placeholder: 'Find a tag (0)', 'aria-label': assigning ? `Find a tag for slot ${editSlot}` : 'Find a tag to add', autocomplete: 'off' });
    const found = el('ul', { class: 'quick-tag-results' });
    let timer = null;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const q = search.value.trim();
        if (!q) return found.replaceChildren();
        const rows = await window.stacksPickerRows('/v1/tags/suggest', q).catch(() => []);
        found.replaceChildren(
          ...rows.slice(0, 8).map((row) => {
            const t = { id: Number(row.id), name: row.name };
            const action = assigning
              ? () => {
                  const inSlot = slotTags(editSlot);
                  if (!inSlot.some((x) => x.id === t.id)) saveSlot(editSlot, [...inSlot, t]);
                  render();
                  status(`${t.name} put in slot ${editSlot}.`);
                }
              : () => toggle([t]);
            const label = assigning ? `Put ${t.name} in slot ${editSlot}` : has.has(t.id) ? `Remove ${t.name}` : `Add ${t.name}`;
            return el('li', {}, el('button', { type: 'button', class: 'link', onclick: action }, label));
          }),
        );
      }, 200);
    });
    return [search, found];
  }

  function selectTab(i) {
    tab = i;
    localStorage.setItem(TAB_KEY, String(i));
    expanded = null;
    editSlot = null;
    if (i === RECENT_TAB) editing = false;
    if (panel !== 'tags') return setPanel('tags', true);
    render();
    aside().querySelector(`[data-focus="tab-${i}"]`)?.focus();
  }

  function tabKeys(ev) {
    if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
    // Here the arrows move between tabs, not between resources.
    ev.preventDefault();
    ev.stopPropagation();
    selectTab((tab + (ev.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length);
  }

  function setEditing(on) {
    editing = on;
    editSlot = null;
    expanded = null;
    render();
    status(on ? 'Editing slots: choose a slot, then find tags to put in it.' : 'Slots saved in this browser.');
  }

  function collapse() {
    const n = expanded;
    expanded = null;
    render();
    aside().querySelector(`[data-focus="slot-${n}"]`)?.focus();
  }

  /** Toggles a slot's tags on the resource: all on, or all off when every one is on. */
  async function toggle(tags) {
    if (!current?.record || !tags.length) return;
    const off = stateOf(tags) === 'all';
    const has = new Set((current.record.Tags || []).map((t) => t.ID));
    const change = off ? tags : tags.filter((t) => !has.has(t.id));
    try {
      await post(`/v1/resources/${off ? 'removeTags' : 'addTags'}`, { ID: [Number(current.id)], EditedId: change.map((t) => t.id) });
      for (const t of [...change].reverse()) remember(t);
      await load(current.id);
      status(`${off ? 'Removed' : 'Added'} ${change.map((t) => t.name).join(', ')}.`);
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
    // The panel is redrawn after every change; the focus stays on the same control.
    const active = document.activeElement && node.contains(document.activeElement) ? document.activeElement : null;
    const focused = active ? active.getAttribute('data-focus') || active.getAttribute('name') : null;
    node.replaceChildren(...(panel === 'info' ? renderInfo(current.record) : renderTags(current.record)), el('p', { class: 'hint', role: 'status', 'aria-live': 'polite' }));
    if (focused) node.querySelector(`[data-focus="${focused}"], [name="${focused}"]`)?.focus();
  }

  async function load(id) {
    const mine = ++ticket;
    const [res, custom] = await Promise.all([
      fetch(`/v1/resource?id=${encodeURIComponent(id)}`, { headers: { accept: 'application/json' } }),
      fetch(`/resource/lightbox.body?id=${encodeURIComponent(id)}`, { headers: { accept: 'text/html' } }).then((r) => (r.ok ? r.text() : '')).catch(() => ''),
    ]);
    if (mine !== ticket) return;
    // Only a filled template counts; the route's own "no template" text is for its page.
    const probe = document.createElement('template');
    probe.innerHTML = custom;
    current = { id, record: res.ok ? await res.json() : null, custom: probe.content.querySelector('.custom-slot') ? custom : '' };
    render();
  }

  async function setPanel(which, force) {
    panel = panel === which && !force ? null : which;
    if (panel && current && !current.record) await load(current.id);
    else render();
    if (panel === 'tags') aside().querySelector('[role="tab"][aria-selected="true"]')?.focus();
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
      dialog.addEventListener('keyup', onKeyUp);
    }
    current = { id: ev.detail.id, record: null };
    expanded = null;
    if (panel) load(ev.detail.id);
  });

  // A slot key held down: released before HOLD_MS it presses the slot, held on it opens it.
  let keyHold = null; // { n, timer, opened }

  function onKey(ev) {
    const t = ev.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const tabKey = TABS.findIndex((x) => x.key === key);
    if (key === 'e' || key === 'F2') {
      ev.preventDefault();
      setPanel('info');
    } else if (key === 't') {
      ev.preventDefault();
      setPanel('tags');
    } else if (tabKey >= 0) {
      ev.preventDefault();
      selectTab(tabKey);
    } else if (panel === 'tags' && expanded && /^[1-9]$/.test(key)) {
      ev.preventDefault();
      ev.stopPropagation();
      const tag = slotTags(expanded)[Number(key) - 1];
      if (tag) toggle([tag]);
    } else if (panel === 'tags' && expanded && key === 'Escape') {
      ev.preventDefault(); // closes the open slot, not the lightbox
      collapse();
    } else if (panel === 'tags' && /^[1-9]$/.test(key)) {
      ev.preventDefault();
      ev.stopPropagation();
      if (ev.repeat || keyHold) return;
      const n = Number(key);
      keyHold = { n, opened: false, timer: null };
      keyHold.timer = setTimeout(() => {
        if (!keyHold || editing || slotTags(n).length < 2) return;
        keyHold.opened = true;
        expand(n);
      }, HOLD_MS);
    } else if (panel === 'tags' && key === '0') {
      // 0 also fits the image to the window (the lightbox's own key); here it finds a tag too.
      ev.preventDefault();
      aside().querySelector('input[name="tag-search"]')?.focus();
    }
  }

  function onKeyUp(ev) {
    if (!keyHold || ev.key !== String(keyHold.n)) return;
    const hold = keyHold;
    keyHold = null;
    clearTimeout(hold.timer);
    if (!hold.opened) pressSlot(hold.n);
  }
})();
