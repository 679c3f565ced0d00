// Alpine component of the saved-query page: runs the query through /v1/query/run and exposes
// results (row objects), columns and rows to the table or to the query's own Template.
document.addEventListener('alpine:init', () => {
  window.Alpine.data('queryRunner', (config) => ({
    values: Object.fromEntries(config.params.map((p) => [p, ''])),
    columns: [],
    rows: [],
    results: [],
    error: '',
    ran: false,
    sortColumn: -1,
    sortAsc: true,
    async run() {
      this.error = '';
      const body = new URLSearchParams({ id: String(config.id), ...this.values });
      const res = await fetch('/v1/query/run', { method: 'POST', headers: { accept: 'application/json' }, body });
      const data = await res.json();
      if (!res.ok) {
        this.error = data.error || 'the query failed';
        return;
      }
      this.columns = data.columns;
      this.rows = data.rows;
      this.results = data.rows.map((r) => Object.fromEntries(data.columns.map((c, i) => [c, r[i]])));
      window.results = this.results;
      this.ran = true;
    },
    sortBy(i) {
      this.sortAsc = this.sortColumn === i ? !this.sortAsc : true;
      this.sortColumn = i;
      const dir = this.sortAsc ? 1 : -1;
      this.rows = [...this.rows].sort((a, b) => (a[i] > b[i] ? dir : a[i] < b[i] ? -dir : 0));
    },
  }));
});
