// Entity picker for forms: type to search an endpoint, pick results as chips. Each chip is a
// hidden input; an always-present empty input makes "nothing picked" an explicit empty value,
// which the API reads as "clear" rather than "keep".
//
// The text box follows the ARIA combobox pattern (a listbox popup, aria-activedescendant), so
// screen readers announce the options; arrows move, Enter picks without submitting the form,
// Escape closes, Backspace in an empty box removes the last chip.
(() => {
  let counter = 0;

  /** Rows of a list endpoint as {id, name}, whatever the endpoint's casing. */
  function rowsOf(body) {
    const rows = Array.isArray(body) ? body : Array.isArray(body?.results) ? body.results : [];
    return rows.map((r) => ({ id: r.ID ?? r.id, name: r.Name ?? r.name ?? `#${r.ID ?? r.id}` })).filter((r) => r.id !== undefined);
  }

  async function fetchRows(source, query, signal) {
    const url = new URL(source, window.location.origin);
    url.searchParams.set('Name', query);
    url.searchParams.set('MaxResults', '50');
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal });
    if (!res.ok) return [];
    return rowsOf(await res.json());
  }

  window.stacksPickerRows = fetchRows;

  document.addEventListener('alpine:init', () => {
    window.Alpine.data('picker', (config) => ({
      name: config.name,
      source: config.source,
      multiple: config.multiple !== false,
      selected: config.selected || [],
      query: '',
      results: [],
      open: false,
      active: -1,
      status: '',
      uid: `picker-${++counter}`,
      controller: null,
      optionId(i) {
        return `${this.uid}-opt-${i}`;
      },
      async search() {
        const q = this.query.trim();
        this.controller?.abort();
        if (q === '') {
          this.close();
          return;
        }
        this.controller = new AbortController();
        let rows;
        try {
          rows = await fetchRows(this.source, q, this.controller.signal);
        } catch {
          return; // aborted by a newer search, or offline
        }
        const taken = new Set(this.selected.map((s) => s.id));
        this.results = rows.filter((r) => !taken.has(r.id)).slice(0, 12);
        this.open = true;
        this.active = this.results.length > 0 ? 0 : -1;
        this.status = this.results.length === 0 ? 'No matches.' : `${this.results.length} ${this.results.length === 1 ? 'match' : 'matches'}; use the up and down arrows and Enter to pick.`;
      },
      close() {
        this.results = [];
        this.open = false;
        this.active = -1;
      },
      move(step) {
        if (!this.open || this.results.length === 0) {
          if (this.query.trim() !== '') this.search();
          return;
        }
        const n = this.results.length;
        this.active = (this.active + step + n) % n;
        this.$nextTick(() => document.getElementById(this.optionId(this.active))?.scrollIntoView({ block: 'nearest' }));
      },
      key(event) {
        switch (event.key) {
          case 'ArrowDown':
            event.preventDefault();
            this.move(1);
            break;
          case 'ArrowUp':
            event.preventDefault();
            this.move(-1);
            break;
          case 'Enter':
            // Enter in a picker never submits the form: the typed text is not a value.
            event.preventDefault();
            if (this.open && this.active >= 0) this.add(this.results[this.active]);
            break;
          case 'Escape':
            if (this.open) {
              event.preventDefault();
              event.stopPropagation();
              this.close();
            }
            break;
          case 'Backspace':
            if (this.query === '' && this.selected.length > 0) this.remove(this.selected[this.selected.length - 1]);
            break;
        }
      },
      add(item) {
        this.selected = this.multiple ? [...this.selected, item] : [item];
        this.query = '';
        this.close();
        this.status = `${item.name} added.`;
      },
      remove(item) {
        this.selected = this.selected.filter((s) => s.id !== item.id);
        this.status = `${item.name} removed.`;
      },
    }));
  });
})();
