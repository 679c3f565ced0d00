// The block editor of the note page (edit mode): add blocks of any type, edit a block's content,
// reorder blocks (drag by the handle, the handle's ↑/↓ keys, or the Move buttons), and delete
// them. Every change goes through the /v1/note/block… API, then the blocks are swapped in place
// for the server's rendering of the note (/note.body), so the page never reloads and the server
// stays the one renderer (Markdown, galleries, tables). Edit mode survives a reload. A refused
// change (400 naming the field) is shown next to the editor; outcomes are announced politely.
// Plugin blocks are edited by the plugin's own edit rendering, which saves through the
// window.mahBlock bridge defined here.
(() => {
  'use strict';

  const root = document.getElementById('note-blocks');
  if (!root) return;
  const noteId = Number(root.dataset.noteId);
  const types = JSON.parse(root.dataset.blockTypes || '[]');
  const editKey = `stacks-note-edit-${noteId}`;
  const toggle = document.getElementById('edit-blocks');

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

  const field = (label, input, hint) => el('label', { class: 'field' }, el('span', { text: label }), input, hint ? el('small', { text: hint }) : null);
  const newId = (prefix) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  async function api(method, url, body) {
    const res = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    if (res.status === 204) return null;
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
    return data;
  }

  const status = el('p', { class: 'block-status', role: 'status', 'aria-live': 'polite' });
  const say = (text) => {
    status.textContent = text;
  };

  /** Swaps the blocks (and the description shown when there is no text block) for fresh ones. */
  async function refresh() {
    const res = await fetch(`/note.body?id=${noteId}`, { headers: { accept: 'text/html' } });
    if (!res.ok) throw new Error(`the note could not be reloaded (${res.status})`);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const fresh = doc.getElementById('note-blocks');
    if (!fresh) throw new Error('the note could not be reloaded');
    for (const sel of ['.blocks', '.note-description', '.no-blocks']) root.querySelector(`:scope > ${sel}`)?.remove();
    const anchor = root.querySelector('.block-add') || root.querySelector('.block-toolbar');
    for (const sel of ['.note-description', '.blocks', '.no-blocks']) {
      const node = fresh.querySelector(`:scope > ${sel}`);
      if (node) anchor.before(document.importNode(node, true));
    }
    window.StacksBlocks?.init(root);
    if (root.classList.contains('editing')) for (const section of sections()) section.prepend(controls(section));
  }

  const sectionOf = (id) => root.querySelector(`section.block[data-block-id="${id}"]`);

  function sections() {
    return [...root.querySelectorAll('.blocks > section.block')];
  }

  function blockOf(section) {
    return JSON.parse(section.dataset.block);
  }

  /**
   * A search picker (the page's server-rendered Picker, cloned from its template) holding the
   * block's ids; names come from the block as rendered, so nobody sees or types an id. Alpine
   * starts the clone when it is attached to the page.
   */
  function pickerEditor(type, name, current, names) {
    const template = document.getElementById(`picker-${type}`);
    const node = template.content.firstElementChild.cloneNode(true);
    const config = JSON.parse(node.getAttribute('x-data').replace(/^picker\(/, '').replace(/\)$/, ''));
    config.selected = (current || []).map((id) => ({ id, name: names.get(id) || `Item ${id}` }));
    node.setAttribute('x-data', `picker(${JSON.stringify(config)})`);
    const read = () => ({
      [name]: [...node.querySelectorAll(`.chips input[name="${name}"]`)].map((i) => Number(i.value)).filter((n) => Number.isInteger(n) && n > 0),
    });
    return { fields: [node], read };
  }

  // Content editors, one per type: build() returns the form fields and a read() that turns them
  // back into the content object the API expects.
  const editors = {
    text(content) {
      const text = el('textarea', { rows: 6, name: 'text', value: content.text || '', 'data-mentions': 'resource,group,tag' });
      window.StacksMentions?.attach(text);
      return { fields: [field('Text', text, 'Markdown: **bold**, *italic*, [links](https://…), - [ ] tasks; type @ to mention a resource, group or tag.')], read: () => ({ text: text.value }) };
    },
    heading(content) {
      const text = el('input', { name: 'text', value: content.text || '' });
      const level = el('select', { name: 'level' });
      for (let i = 1; i <= 6; i++) level.append(el('option', { value: String(i), selected: Number(content.level || 2) === i, text: `Level ${i}` }));
      return { fields: [field('Heading', text), field('Level', level)], read: () => ({ text: text.value, level: Number(level.value) }) };
    },
    divider() {
      return { fields: [el('p', { class: 'hint', text: 'A divider has nothing to edit.' })], read: () => ({}) };
    },
    gallery(content, section) {
      const picked = new Map([...section.querySelectorAll('a[data-lightbox-id]')].map((a) => [Number(a.dataset.lightboxId), a.dataset.lightboxName]));
      return pickerEditor('gallery', 'resourceIds', content.resourceIds, picked);
    },
    references(content, section) {
      const picked = new Map([...section.querySelectorAll('li[data-group-id]')].map((li) => [Number(li.dataset.groupId), li.dataset.groupName]));
      return pickerEditor('references', 'groupIds', content.groupIds, picked);
    },
    todos(content) {
      const list = el('ol', { class: 'todo-editor' });
      const addRow = (item) => {
        const label = el('input', { name: 'label', value: item.label, 'aria-label': 'Item' });
        const row = el('li', { 'data-item-id': item.id }, label, el('button', { type: 'button', class: 'link danger', onclick: () => row.remove() }, 'remove'));
        list.append(row);
        return label;
      };
      for (const item of content.items || []) addRow(item);
      const add = el('button', { type: 'button', class: 'secondary', onclick: () => addRow({ id: newId('t'), label: '' }).focus() }, 'Add item');
      return {
        fields: [list, add],
        read: () => ({ items: [...list.children].map((row) => ({ id: row.dataset.itemId, label: row.querySelector('input').value })) }),
      };
    },
    table(content) {
      const queryMode = typeof content.queryId === 'number';
      const mode = el('select', { name: 'mode' }, el('option', { value: 'static', selected: !queryMode, text: 'Typed-in data' }), el('option', { value: 'query', selected: queryMode, text: 'A saved query' }));
      const columns = el('textarea', { rows: 3, name: 'columns', value: (content.columns || []).map((c) => (typeof c === 'string' ? c : c.label === c.id ? c.id : `${c.id}: ${c.label}`)).join('\n') });
      const colIds = (content.columns || []).map((c) => (typeof c === 'string' ? c : c.id));
      const rows = el('textarea', { rows: 5, name: 'rows', value: (content.rows || []).map((r) => colIds.map((id) => (r[id] === null || r[id] === undefined ? '' : String(r[id]))).join(' | ')).join('\n') });
      const query = el('select', { name: 'queryId' }, el('option', { value: '', text: 'Loading saved queries…' }));
      const params = el('textarea', { rows: 3, class: 'code', name: 'queryParams', value: JSON.stringify(content.queryParams || {}, null, 2) });
      const isStatic = el('input', { type: 'checkbox', name: 'isStatic', checked: content.isStatic === true });
      const staticPart = el('div', {}, field('Columns', columns, 'One per line; "id: Label" to name a column differently.'), field('Rows', rows, 'One per line, cells separated by |.'));
      const queryPart = el('div', {}, field('Saved query', query), field('Parameters (JSON object)', params), el('label', { class: 'field checkbox' }, isStatic, el('span', { text: ' Static snapshot' })));
      const sync = () => {
        staticPart.hidden = mode.value !== 'static';
        queryPart.hidden = mode.value !== 'query';
      };
      mode.addEventListener('change', sync);
      sync();
      fetch('/v1/queries', { headers: { accept: 'application/json' } })
        .then((r) => r.json())
        .then((list) => {
          query.replaceChildren(el('option', { value: '', text: 'Choose a saved query' }), ...list.map((q) => el('option', { value: String(q.ID), selected: q.ID === content.queryId, text: q.Name })));
        })
        .catch(() => query.replaceChildren(el('option', { value: content.queryId || '', text: 'Saved queries could not be loaded' })));
      return {
        fields: [field('Data', mode), staticPart, queryPart],
        read: () => {
          if (mode.value === 'query') {
            let parsed;
            try {
              parsed = JSON.parse(params.value || '{}');
            } catch {
              throw new Error('the parameters are not valid JSON');
            }
            return { queryId: Number(query.value), queryParams: parsed, isStatic: isStatic.checked };
          }
          const cols = columns.value
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .map((l) => {
              const m = /^([^:]+):\s*(.+)$/.exec(l);
              return m ? { id: m[1].trim(), label: m[2].trim() } : l;
            });
          const keys = cols.map((c) => (typeof c === 'string' ? c : c.id));
          const data = rows.value
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => Object.fromEntries(l.split('|').map((cell, i) => [keys[i], cell.trim()]).filter(([k]) => k !== undefined)));
          return { columns: cols, rows: data };
        },
      };
    },
    calendar(content) {
      const list = el('ol', { class: 'calendar-editor' });
      const addRow = (cal) => {
        const name = el('input', { name: 'name', value: cal.name || '', placeholder: 'Name', 'aria-label': 'Calendar name' });
        const kind = el('select', { name: 'sourceType', 'aria-label': 'Source' }, el('option', { value: 'url', selected: cal.source?.type !== 'resource', text: 'Web address' }), el('option', { value: 'resource', selected: cal.source?.type === 'resource', text: 'Resource id' }));
        const where = el('input', { name: 'source', value: cal.source?.type === 'resource' ? String(cal.source.resourceId) : cal.source?.url || '', placeholder: 'https://…/calendar.ics or a resource id', 'aria-label': 'Address or resource id' });
        const color = el('input', { type: 'color', name: 'color', value: cal.color && /^#[0-9a-f]{6}$/i.test(cal.color) ? cal.color : '#3b82f6', 'aria-label': 'Colour' });
        const row = el('li', { 'data-calendar-id': cal.id }, name, kind, where, color, el('button', { type: 'button', class: 'link danger', onclick: () => row.remove() }, 'remove'));
        list.append(row);
      };
      for (const cal of content.calendars || []) addRow(cal);
      const add = el('button', { type: 'button', class: 'secondary', onclick: () => addRow({ id: newId('c'), name: '' }) }, 'Add calendar');
      return {
        fields: [list, add, el('p', { class: 'hint', text: 'iCalendar (.ics) feeds over http or https, or an uploaded .ics resource. Recurring events show their first occurrence.' })],
        read: () => ({
          calendars: [...list.children].map((row) => {
            const [name, kind, where, color] = row.querySelectorAll('input, select');
            const source = kind.value === 'resource' ? { type: 'resource', resourceId: Number(where.value) } : { type: 'url', url: where.value.trim() };
            return { id: row.dataset.calendarId, name: name.value || 'Calendar', color: color.value, source };
          }),
        }),
      };
    },
  };

  const pluginOf = (type) => /^plugin:([^:]+):/.exec(type)?.[1];

  /**
   * A plugin block's editor is the plugin's own edit rendering (library-plugins.md §22.3); it
   * saves through window.mahBlock, so the form only closes. Scripts in the fragment are re-made
   * so the browser runs them, as it would have had the HTML come with the page.
   */
  function pluginEditor(block, error) {
    const box = el('div', { class: 'plugin-block-edit', 'aria-busy': 'true' }, el('p', { class: 'hint', text: 'Loading the editor…' }));
    fetch(`/v1/plugins/${encodeURIComponent(pluginOf(block.type))}/block/render?blockId=${block.id}&mode=edit`, { headers: { accept: 'text/html' } })
      .then(async (res) => {
        const text = await res.text();
        if (!res.ok) throw new Error(text || `the editor could not be loaded (${res.status})`);
        box.innerHTML = text;
        for (const old of box.querySelectorAll('script')) {
          const fresh = document.createElement('script');
          for (const a of old.attributes) fresh.setAttribute(a.name, a.value);
          fresh.textContent = old.textContent;
          old.replaceWith(fresh);
        }
        box.querySelector('input:not([type="hidden"]), textarea, select, button')?.focus();
      })
      .catch((e) => {
        box.replaceChildren();
        error.hidden = false;
        error.textContent = e.message;
      })
      .finally(() => box.removeAttribute('aria-busy'));
    return box;
  }

  function openEditor(section) {
    const block = blockOf(section);
    const plugin = pluginOf(block.type);
    const make = editors[block.type];
    if (!make && !plugin) return;
    section.querySelector('.block-editor')?.remove();
    const error = el('p', { class: 'block-error', role: 'alert', hidden: true });
    if (plugin) {
      const form = el('form', { class: 'block-editor card form', 'data-testid': 'block-editor' }, pluginEditor(block, error), error, el('div', { class: 'editor-actions' }, el('button', { type: 'button', class: 'secondary', onclick: () => form.remove() }, 'Close')));
      form.addEventListener('submit', (ev) => ev.preventDefault());
      section.append(form);
      return;
    }
    const { fields, read } = make(block.content || {}, section);
    const form = el('form', { class: 'block-editor card form', 'data-testid': 'block-editor' }, ...fields, error, el('div', { class: 'editor-actions' }, el('button', { type: 'submit' }, 'Save'), el('button', { type: 'button', class: 'secondary', onclick: () => form.remove() }, 'Cancel')));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        await api('PUT', `/v1/note/block?id=${block.id}&noteId=${noteId}`, { content: read() });
        await refresh();
        sectionOf(block.id)?.querySelector('.block-edit')?.focus();
        say(`Saved the ${block.type} block.`);
      } catch (e) {
        error.hidden = false;
        error.textContent = e.message;
      }
    });
    section.append(form);
    form.querySelector('input:not([type="hidden"]), textarea, select')?.focus();
  }

  /** Fixed-width lowercase keys: byte order is list order, and no key collides with another. */
  function positionsFor(ids) {
    let width = 2;
    while (26 ** width <= ids.length + 1) width++;
    const key = (n) => {
      let out = '';
      for (let k = 0; k < width; k++) {
        out = String.fromCharCode(97 + (n % 26)) + out;
        n = Math.floor(n / 26);
      }
      return out;
    };
    return Object.fromEntries(ids.map((id, i) => [id, key(i + 1)]));
  }

  /** Puts the blocks in the order of `ids` and keeps the focus on the moved block's handle. */
  async function reorder(ids, movedId) {
    await api('POST', '/v1/note/blocks/reorder', { noteId, positions: positionsFor(ids) });
    await refresh();
    const moved = sectionOf(movedId);
    moved?.querySelector('.block-handle')?.focus();
    const at = sections().indexOf(moved);
    say(`Moved the ${moved?.dataset.blockType || ''} block to position ${at + 1} of ${sections().length}.`);
  }

  async function move(section, delta) {
    const ids = sections().map((s) => Number(s.dataset.blockId));
    const i = ids.indexOf(Number(section.dataset.blockId));
    const j = i + delta;
    if (j < 0 || j >= ids.length) return say(delta < 0 ? 'Already the first block.' : 'Already the last block.');
    [ids[i], ids[j]] = [ids[j], ids[i]];
    await reorder(ids, ids[j]);
  }

  // Dragging by the handle: the section under the pointer shows where the block will land.
  let dragged = null;
  function clearMarks() {
    for (const s of sections()) s.classList.remove('drop-before', 'drop-after', 'dragging');
  }
  function dropSide(section, ev) {
    const r = section.getBoundingClientRect();
    return ev.clientY < r.top + r.height / 2 ? 'before' : 'after';
  }
  root.addEventListener('dragover', (ev) => {
    const over = ev.target instanceof Element ? ev.target.closest('section.block') : null;
    if (!dragged || !over || !root.contains(over)) return;
    ev.preventDefault();
    clearMarks();
    dragged.classList.add('dragging');
    if (over !== dragged) over.classList.add(`drop-${dropSide(over, ev)}`);
  });
  root.addEventListener('drop', async (ev) => {
    const over = ev.target instanceof Element ? ev.target.closest('section.block') : null;
    if (!dragged || !over) return;
    ev.preventDefault();
    const side = dropSide(over, ev);
    const movedId = Number(dragged.dataset.blockId);
    clearMarks();
    dragged = null;
    if (Number(over.dataset.blockId) === movedId) return;
    const ids = sections().map((s) => Number(s.dataset.blockId)).filter((id) => id !== movedId);
    const at = ids.indexOf(Number(over.dataset.blockId)) + (side === 'after' ? 1 : 0);
    ids.splice(at, 0, movedId);
    try {
      await reorder(ids, movedId);
    } catch (e) {
      say(e.message);
    }
  });
  root.addEventListener('dragend', () => {
    clearMarks();
    for (const s of sections()) s.removeAttribute('draggable');
    dragged = null;
  });

  function controls(section) {
    const block = blockOf(section);
    const guard = async (work) => {
      try {
        await work();
      } catch (e) {
        alert(e.message);
      }
    };
    const handle = el('button', {
      type: 'button',
      class: 'secondary block-handle',
      'aria-label': `Reorder ${block.type} block: drag, or press the up and down arrow keys`,
      title: 'Drag to move, or use ↑/↓',
      onkeydown: (ev) => {
        if (ev.key !== 'ArrowUp' && ev.key !== 'ArrowDown') return;
        ev.preventDefault();
        guard(() => move(section, ev.key === 'ArrowUp' ? -1 : 1));
      },
      onpointerdown: () => section.setAttribute('draggable', 'true'),
    }, '⠿');
    section.addEventListener('dragstart', (ev) => {
      if (section.getAttribute('draggable') !== 'true') return;
      dragged = section;
      ev.dataTransfer.effectAllowed = 'move';
      ev.dataTransfer.setData('text/plain', String(block.id));
    });
    return el(
      'div',
      { class: 'block-controls' },
      handle,
      el('span', { class: 'block-type', text: block.type }),
      el('button', { type: 'button', class: 'secondary', 'aria-label': 'Move up', title: 'Move up', onclick: () => guard(() => move(section, -1)) }, '↑'),
      el('button', { type: 'button', class: 'secondary', 'aria-label': 'Move down', title: 'Move down', onclick: () => guard(() => move(section, 1)) }, '↓'),
      el('button', { type: 'button', class: 'secondary block-edit', onclick: () => openEditor(section) }, 'Edit'),
      el('button', {
        type: 'button',
        class: 'danger',
        onclick: () =>
          guard(async () => {
            if (!confirm(`Delete this ${block.type} block?`)) return;
            const next = sections()[sections().indexOf(section) + 1];
            await api('DELETE', `/v1/note/block?id=${block.id}&noteId=${noteId}`);
            const nextId = next?.dataset.blockId;
            await refresh();
            (nextId ? sectionOf(nextId)?.querySelector('.block-handle') : root.querySelector('.block-add select'))?.focus();
            say(`Deleted the ${block.type} block.`);
          }),
      }, 'Delete'),
    );
  }

  function addForm() {
    const select = el('select', { name: 'type', 'aria-label': 'Block type' }, ...types.map((t) => el('option', { value: t.type, text: t.type })));
    const form = el('form', { class: 'block-add', 'data-testid': 'block-add' }, el('strong', { text: 'Add a block: ' }), select, el('button', { type: 'submit' }, 'Add'));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      try {
        const created = await api('POST', '/v1/note/block', { noteId, type: select.value });
        await refresh();
        const section = sectionOf(created.id);
        if (section) {
          openEditor(section);
          section.scrollIntoView({ block: 'center' });
        }
        say(`Added a ${created.type || select.value} block.`);
      } catch (e) {
        alert(e.message);
      }
    });
    return form;
  }

  function enter() {
    root.classList.add('editing');
    toggle.textContent = 'Done editing';
    sessionStorage.setItem(editKey, '1');
    for (const section of sections()) if (!section.querySelector('.block-controls')) section.prepend(controls(section));
    if (!root.querySelector('.block-add')) root.querySelector('.block-toolbar').before(addForm());
    if (!status.isConnected) root.querySelector('.block-toolbar').append(status);
    const open = sessionStorage.getItem(`${editKey}-open`);
    if (open) {
      sessionStorage.removeItem(`${editKey}-open`);
      const target = root.querySelector(`section.block[data-block-id="${open}"]`);
      if (target) {
        openEditor(target);
        target.scrollIntoView({ block: 'center' });
      }
    }
  }

  function leave() {
    root.classList.remove('editing');
    toggle.textContent = 'Edit blocks';
    sessionStorage.removeItem(editKey);
    root.querySelectorAll('.block-controls, .block-editor, .block-add').forEach((n) => n.remove());
  }

  /**
   * The client bridge for plugin block HTML (library-plugins.md §22.3). Both mutators replace
   * (never merge), then show the note's fresh rendering with the block's editor still open; they
   * resolve without a value even on failure, whose message is shown in the block's editor.
   */
  async function mutate(blockId, method, url, body) {
    const id = Number(blockId);
    const section = sectionOf(id);
    const type = section?.dataset.blockType || 'plugin';
    const editing = Boolean(section?.querySelector('.block-editor'));
    try {
      if (!section) throw new Error(`block ${blockId} is not on this page`);
      await api(method, url(id), body);
      await refresh();
      if (editing && sectionOf(id)) openEditor(sectionOf(id));
      say(`Saved the ${type} block.`);
    } catch (e) {
      const box = sectionOf(id)?.querySelector('.block-editor .block-error');
      if (box) {
        box.hidden = false;
        box.textContent = e.message;
      } else say(e.message);
    }
  }

  window.mahBlock = Object.freeze({
    saveContent: (blockId, content) => mutate(blockId, 'PUT', (id) => `/v1/note/block?id=${id}&noteId=${noteId}`, { content }),
    updateState: (blockId, state) => mutate(blockId, 'PATCH', (id) => `/v1/note/block/state?id=${id}&noteId=${noteId}`, { state }),
    /** The editor's copy of the block (as last rendered), or null when it is not on this page. */
    getBlock: (blockId) => {
      const section = sectionOf(Number(blockId));
      return section ? blockOf(section) : null;
    },
  });

  toggle.addEventListener('click', () => (root.classList.contains('editing') ? leave() : enter()));
  if (sessionStorage.getItem(editKey) === '1') enter();
})();
