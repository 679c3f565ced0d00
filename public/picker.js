// Entity picker for forms: type to search an endpoint, pick results as chips. Each chip is a
// hidden input; an always-present empty input makes "nothing picked" an explicit empty value,
// which the API reads as "clear" rather than "keep".
document.addEventListener('alpine:init', () => {
  window.Alpine.data('picker', (config) => ({
    name: config.name,
    source: config.source,
    multiple: config.multiple !== false,
    selected: config.selected || [],
    query: '',
    results: [],
    open: false,
    async search() {
      const q = this.query.trim();
      if (q === '') {
        this.results = [];
        return;
      }
      const url = new URL(this.source, window.location.origin);
      url.searchParams.set('Name', q);
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      if (!res.ok) return;
      const rows = await res.json();
      const taken = new Set(this.selected.map((s) => s.id));
      this.results = rows.slice(0, 12).map((r) => ({ id: r.ID ?? r.id, name: r.Name ?? r.name })).filter((r) => !taken.has(r.id));
      this.open = true;
    },
    add(item) {
      this.selected = this.multiple ? [...this.selected, item] : [item];
      this.query = '';
      this.results = [];
    },
    remove(item) {
      this.selected = this.selected.filter((s) => s.id !== item.id);
    },
  }));
});
