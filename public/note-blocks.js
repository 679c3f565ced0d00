// View-mode interactivity of note blocks, on note pages and on public share pages: ticking todos,
// sorting tables and browsing calendars. Each block <section> carries its state (data-state) and,
// where the viewer may change it, the endpoint that saves it (data-state-url, -method, -wrap).
// Plain DOM code: share pages run under a Content-Security-Policy without eval.
(() => {
  'use strict';

  const stateOf = (section) => {
    try {
      return JSON.parse(section.dataset.state || '{}');
    } catch {
      return {};
    }
  };

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  };

  function showError(section, message) {
    let box = section.querySelector(':scope > .block-error');
    if (!box) {
      box = el('p', { class: 'block-error', role: 'alert' });
      section.append(box);
    }
    box.textContent = message;
  }

  function clearError(section) {
    section.querySelector(':scope > .block-error')?.remove();
  }

  /** Saves the new state when the viewer may; resolves false when saving failed. */
  async function saveState(section, state) {
    section.dataset.state = JSON.stringify(state);
    const url = section.dataset.stateUrl;
    if (!url) return true;
    const wrap = section.dataset.stateWrap === 'true';
    try {
      const res = await fetch(url, {
        method: section.dataset.stateMethod || 'PATCH',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(wrap ? { state } : state),
      });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        showError(section, body.error || `Saving failed (${res.status}).`);
        return false;
      }
      clearError(section);
      const saved = await res.json().catch(() => null);
      if (saved && saved.state) section.dataset.state = JSON.stringify(saved.state);
      return true;
    } catch {
      showError(section, 'Saving failed: the server could not be reached.');
      return false;
    }
  }

  // Todos: each tick saves the list of checked item ids.
  function initTodos(section) {
    const boxes = [...section.querySelectorAll('input[type="checkbox"][data-item-id]')];
    for (const box of boxes) {
      box.addEventListener('change', async () => {
        box.closest('li')?.classList.toggle('done', box.checked);
        const checked = boxes.filter((b) => b.checked).map((b) => b.dataset.itemId);
        const ok = await saveState(section, { ...stateOf(section), checked });
        if (!ok) {
          box.checked = !box.checked;
          box.closest('li')?.classList.toggle('done', box.checked);
        }
      });
    }
  }

  // Tables: a click on a header sorts by that column, a second click reverses; the choice is
  // saved as state where the viewer may (share pages sort only locally).
  const cellValue = (row, index) => row.children[index]?.dataset.value ?? '';
  const numeric = (v) => v.trim() !== '' && !Number.isNaN(Number(v));

  function sortRows(section, column, direction) {
    const table = section.querySelector('table');
    if (!table) return;
    const headers = [...table.querySelectorAll('thead th')];
    const index = headers.findIndex((th) => th.dataset.column === column);
    if (index < 0) return;
    const body = table.tBodies[0];
    const dir = direction === 'desc' ? -1 : 1;
    const rows = [...body.rows].sort((a, b) => {
      const x = cellValue(a, index);
      const y = cellValue(b, index);
      if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
      const c = numeric(x) && numeric(y) ? Number(x) - Number(y) : x.localeCompare(y, undefined, { numeric: true });
      return c * dir;
    });
    body.append(...rows);
    headers.forEach((th) => {
      const button = th.querySelector('button');
      const label = button.textContent.replace(/ [▲▼]$/, '');
      const active = th.dataset.column === column;
      button.textContent = active ? `${label} ${direction === 'desc' ? '▼' : '▲'}` : label;
      if (active) th.setAttribute('aria-sort', direction === 'desc' ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
    });
  }

  function initTable(section) {
    for (const th of section.querySelectorAll('thead th[data-column]')) {
      th.querySelector('button')?.addEventListener('click', () => {
        const state = stateOf(section);
        const column = th.dataset.column;
        const direction = state.sortColumn === column && state.sortDirection !== 'desc' ? 'desc' : 'asc';
        sortRows(section, column, direction);
        saveState(section, { ...state, sortColumn: column, sortDirection: direction });
      });
    }
  }

  // Calendars: a month grid or an agenda of the month of state.currentDate, with events from the
  // block's sources and its custom events. Where the viewer may change state, navigation and the
  // view are remembered and custom events can be added and removed.
  const DAY = 86400000;
  const pad = (n) => String(n).padStart(2, '0');
  const ymd = (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const monthName = (d) => d.toLocaleString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const timeOf = (iso) => iso.slice(11, 16);

  function parseDay(text) {
    const d = text ? new Date(`${text.slice(0, 10)}T00:00:00Z`) : new Date();
    return Number.isNaN(d.getTime()) ? new Date(`${ymd(new Date())}T00:00:00Z`) : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  }

  function monthRange(day) {
    const first = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
    const last = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0));
    return { first, last };
  }

  function gridRange(day) {
    const { first, last } = monthRange(day);
    const start = new Date(first.getTime() - ((first.getUTCDay() + 6) % 7) * DAY);
    const end = new Date(last.getTime() + ((7 - last.getUTCDay()) % 7) * DAY);
    return { start, end };
  }

  function eventDays(e) {
    const start = parseDay(e.start.slice(0, 10));
    // An all-day end (or one at midnight) is exclusive.
    const endMs = Date.parse(e.end);
    const endDay = parseDay(new Date(e.allDay || e.end.slice(11, 19) === '00:00:00' ? Math.max(endMs - 1, Date.parse(e.start)) : endMs).toISOString().slice(0, 10));
    const days = [];
    for (let d = start; d <= endDay && days.length < 62; d = new Date(d.getTime() + DAY)) days.push(ymd(d));
    return days;
  }

  function initCalendar(section) {
    const root = section.querySelector('.calendar');
    if (!root) return;
    const editable = Boolean(section.dataset.stateUrl);
    let data = { events: [], calendars: [], errors: [] };

    const state = () => ({ view: 'month', customEvents: [], ...stateOf(section) });
    const current = () => parseDay(state().currentDate);
    const colorOf = (calendarId) => data.calendars.find((c) => c.id === calendarId)?.color || '#6366f1';

    async function load() {
      const view = state().view === 'agenda' ? 'agenda' : 'month';
      const range = view === 'month' ? gridRange(current()) : { start: monthRange(current()).first, end: monthRange(current()).last };
      const base = root.dataset.eventsUrl;
      const url = `${base}${base.includes('?') ? '&' : '?'}start=${ymd(range.start)}&end=${ymd(range.end)}`;
      root.classList.add('loading');
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' } });
        const body = await res.json();
        data = res.ok ? body : { events: [], calendars: [], errors: [{ calendarId: '', error: body.error || `HTTP ${res.status}` }] };
      } catch {
        data = { events: [], calendars: [], errors: [{ calendarId: '', error: 'The events could not be loaded.' }] };
      }
      root.classList.remove('loading');
      render(view, range);
    }

    async function change(patch) {
      const next = { ...state(), ...patch };
      if (editable) await saveState(section, next);
      else section.dataset.state = JSON.stringify(next);
      await load();
    }

    function toolbar(view) {
      const day = current();
      const shift = (months) => change({ currentDate: ymd(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months, 1))) });
      return el(
        'div',
        { class: 'calendar-toolbar' },
        el('button', { type: 'button', class: 'secondary', 'aria-label': 'Previous month', onclick: () => shift(-1) }, '‹'),
        el('button', { type: 'button', class: 'secondary', onclick: () => change({ currentDate: ymd(new Date()) }) }, 'Today'),
        el('button', { type: 'button', class: 'secondary', 'aria-label': 'Next month', onclick: () => shift(1) }, '›'),
        el('strong', { class: 'calendar-title', text: monthName(day) }),
        el('span', { class: 'calendar-views' },
          el('button', { type: 'button', class: view === 'month' ? '' : 'secondary', 'aria-pressed': String(view === 'month'), onclick: () => change({ view: 'month' }) }, 'Month'),
          el('button', { type: 'button', class: view === 'agenda' ? '' : 'secondary', 'aria-pressed': String(view === 'agenda'), onclick: () => change({ view: 'agenda' }) }, 'Agenda'),
        ),
      );
    }

    function eventChip(e) {
      const chip = el('span', { class: 'event', title: [e.title, e.location, e.description].filter(Boolean).join(' — ') });
      chip.append(el('i', { class: 'dot', style: `background:${colorOf(e.calendarId)}` }), ` ${e.allDay ? '' : `${timeOf(e.start)} `}${e.title}`);
      return chip;
    }

    function monthGrid(range) {
      const byDay = new Map();
      for (const e of data.events) for (const d of eventDays(e)) byDay.set(d, [...(byDay.get(d) || []), e]);
      const month = current().getUTCMonth();
      const table = el('table', { class: 'calendar-month' });
      const head = el('tr');
      for (const name of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) head.append(el('th', { text: name }));
      table.append(el('thead', {}, head));
      const body = el('tbody');
      let row;
      for (let d = range.start, i = 0; d <= range.end; d = new Date(d.getTime() + DAY), i++) {
        if (i % 7 === 0) body.append((row = el('tr')));
        const key = ymd(d);
        const cell = el('td', { class: d.getUTCMonth() === month ? '' : 'outside', 'data-day': key }, el('span', { class: 'day', text: String(d.getUTCDate()) }));
        for (const e of byDay.get(key) || []) cell.append(eventChip(e));
        row.append(cell);
      }
      table.append(body);
      return table;
    }

    function agenda() {
      if (data.events.length === 0) return el('p', { class: 'empty', text: 'No events this month.' });
      const list = el('ul', { class: 'calendar-agenda' });
      for (const e of data.events) {
        const when = e.allDay ? `${e.start.slice(0, 10)} (all day)` : `${e.start.slice(0, 10)} ${timeOf(e.start)}–${timeOf(e.end)}`;
        const item = el('li', {}, el('i', { class: 'dot', style: `background:${colorOf(e.calendarId)}` }), el('span', { class: 'when', text: when }), ' ', el('strong', { text: e.title }));
        if (e.location) item.append(el('span', { class: 'where', text: ` · ${e.location}` }));
        if (e.description) item.append(el('p', { class: 'what', text: e.description }));
        if (editable && e.calendarId === 'custom') {
          item.append(el('button', { type: 'button', class: 'link danger', 'aria-label': `Remove ${e.title}`, onclick: () => change({ customEvents: state().customEvents.filter((c) => c.id !== e.id) }) }, 'remove'));
        }
        list.append(item);
      }
      return list;
    }

    function addEventForm() {
      const form = el('form', { class: 'calendar-add' });
      const title = el('input', { name: 'title', required: true, placeholder: 'Event title', 'aria-label': 'Event title' });
      const start = el('input', { name: 'start', type: 'datetime-local', required: true, 'aria-label': 'Starts' });
      const end = el('input', { name: 'end', type: 'datetime-local', required: true, 'aria-label': 'Ends' });
      const allDay = el('input', { name: 'allDay', type: 'checkbox' });
      const location = el('input', { name: 'location', placeholder: 'Location (optional)', 'aria-label': 'Location' });
      form.append(title, start, end, el('label', {}, allDay, ' all day'), location, el('button', { type: 'submit' }, 'Add event'));
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const event = {
          id: `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
          title: title.value,
          start: `${start.value}:00Z`,
          end: `${end.value}:00Z`,
          allDay: allDay.checked,
          calendarId: 'custom',
        };
        if (location.value) event.location = location.value;
        change({ customEvents: [...state().customEvents, event], currentDate: start.value.slice(0, 10) });
      });
      return el('details', { class: 'calendar-add-wrap' }, el('summary', { text: 'Add an event' }), form);
    }

    function render(view, range) {
      root.replaceChildren(toolbar(view));
      for (const err of data.errors || []) {
        const name = data.calendars.find((c) => c.id === err.calendarId)?.name || err.calendarId || 'calendar';
        root.append(el('p', { class: 'calendar-error', role: 'status', text: `${name}: ${err.error}` }));
      }
      root.append(view === 'month' ? monthGrid(range) : agenda());
      if (data.calendars.length) {
        const legend = el('p', { class: 'calendar-legend' });
        for (const c of data.calendars) legend.append(el('span', {}, el('i', { class: 'dot', style: `background:${c.color}` }), ` ${c.name} `));
        root.append(legend);
      }
      if (editable) root.append(addEventForm());
    }

    load();
  }

  function init(scope) {
    for (const section of scope.querySelectorAll('section.block')) {
      if (section.dataset.viewReady) continue;
      section.dataset.viewReady = '1';
      const type = section.dataset.blockType;
      if (type === 'todos') initTodos(section);
      else if (type === 'table') initTable(section);
      else if (type === 'calendar') initCalendar(section);
    }
  }

  window.StacksBlocks = { init, saveState };
  init(document);
})();
