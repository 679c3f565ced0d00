// @-mention autocomplete (companion §12.2): typing @ and two or more characters in a textarea
// marked data-mentions="resource,group,note,tag" (the types it may mention) lists matches from
// the global search; ↑/↓ choose, Enter or Tab insert `@[type:id:name]`, Escape closes.
// The block editor attaches its text areas through window.StacksMentions.attach.
(() => {
  'use strict';

  let menu = null;
  let state = null; // { area, start, results, active }
  let timer = null;
  let seq = 0;

  function close() {
    if (menu) menu.remove();
    if (state) state.area.removeAttribute('aria-activedescendant');
    menu = null;
    state = null;
  }

  /** The `@word` being typed just before the caret, if any. */
  function query(area) {
    const upto = area.value.slice(0, area.selectionStart);
    const m = /(^|[\s(])@([^\s@[\]]{2,40})$/.exec(upto);
    return m ? { start: upto.length - m[2].length - 1, text: m[2] } : null;
  }

  function render() {
    if (!menu || !state) return;
    menu.replaceChildren(
      ...state.results.map((r, i) => {
        const li = document.createElement('li');
        li.id = `mention-option-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i === state.active));
        const type = document.createElement('span');
        type.className = 'mention-type';
        type.textContent = r.type;
        li.append(type, document.createTextNode(r.name));
        li.addEventListener('mousedown', (ev) => {
          ev.preventDefault();
          insert(i);
        });
        return li;
      }),
    );
    if (state.results.length === 0) {
      const li = document.createElement('li');
      li.textContent = 'Nothing matches';
      li.setAttribute('aria-disabled', 'true');
      menu.append(li);
    }
    state.area.setAttribute('aria-activedescendant', state.results.length ? `mention-option-${state.active}` : '');
  }

  function place(area) {
    const r = area.getBoundingClientRect();
    menu.style.left = `${window.scrollX + r.left}px`;
    menu.style.top = `${window.scrollY + r.bottom + 2}px`;
  }

  async function lookup(area) {
    const q = query(area);
    if (!q) return close();
    const types = (area.dataset.mentions || 'resource,group,note,tag').split(',');
    const ticket = ++seq;
    let results = [];
    try {
      const res = await fetch(`/v1/search?${new URLSearchParams({ q: q.text, limit: '12', types: types.join(',') })}`, { headers: { accept: 'application/json' } });
      if (res.ok) results = (await res.json()).results.filter((r) => types.includes(r.type));
    } catch {
      results = [];
    }
    if (ticket !== seq || document.activeElement !== area) return;
    // Grouped by type, in the order the area lists its types.
    results.sort((a, b) => types.indexOf(a.type) - types.indexOf(b.type));
    if (!menu) {
      menu = document.createElement('ul');
      menu.className = 'mention-menu';
      menu.id = 'mention-menu';
      menu.setAttribute('role', 'listbox');
      menu.setAttribute('aria-label', 'Mention suggestions');
      document.body.append(menu);
    }
    state = { area, start: q.start, results, active: 0 };
    area.setAttribute('aria-controls', 'mention-menu');
    place(area);
    render();
  }

  function insert(i) {
    const r = state && state.results[i];
    if (!r) return close();
    const area = state.area;
    const name = String(r.name).replace(/[\]\n]/g, ' ');
    const marker = `@[${r.type}:${r.id}:${name}] `;
    const before = area.value.slice(0, state.start);
    const after = area.value.slice(area.selectionStart);
    area.value = before + marker + after;
    const caret = before.length + marker.length;
    area.setSelectionRange(caret, caret);
    area.dispatchEvent(new Event('input', { bubbles: true }));
    close();
    area.focus();
  }

  function attach(area) {
    if (area.dataset.mentionsReady) return;
    area.dataset.mentionsReady = '1';
    area.setAttribute('aria-autocomplete', 'list');
    area.addEventListener('input', () => {
      clearTimeout(timer);
      if (!query(area)) return close();
      timer = setTimeout(() => lookup(area), 200);
    });
    area.addEventListener('keydown', (ev) => {
      if (!state || state.area !== area) return;
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        const n = state.results.length;
        if (n) state.active = (state.active + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
        render();
      } else if ((ev.key === 'Enter' || ev.key === 'Tab') && state.results.length) {
        ev.preventDefault();
        insert(state.active);
      } else if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        close();
      }
    });
    area.addEventListener('blur', () => setTimeout(() => state && state.area === area && close(), 150));
  }

  window.StacksMentions = { attach };
  const scan = () => document.querySelectorAll('textarea[data-mentions]').forEach(attach);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
})();
