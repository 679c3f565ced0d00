// Alpine component of the MRQL page: live validation with the error underlined, completion at
// the cursor, placeholder inputs, Run/Explain/Export and saved queries (mrql.md §14.9).
document.addEventListener('alpine:init', () => {
  const post = async (url, body) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const data = res.status === 204 ? {} : await res.json();
    return { ok: res.ok, status: res.status, data };
  };
  const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  // Clauses come in this order, each at most once (mrql.md §3.1); HAVING belongs to GROUP BY.
  const CLAUSES = ['SCOPE', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'OFFSET'];
  const clauseOf = (value) => CLAUSES.indexOf(value.toUpperCase());

  /**
   * Drops the server's suggestions that cannot follow the text before the cursor: clause
   * keywords already used or out of order, and AND/OR once past the condition (they join
   * conditions, which only the expression and HAVING hold). Quoted text is not read as keywords.
   */
  function followers(before, suggestions) {
    const bare = before.replace(/"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?/g, ' ').toUpperCase();
    let last = -1;
    for (const [i, c] of CLAUSES.entries()) if (new RegExp(`(^|[^A-Z0-9_.])${c.replace(' ', '\\s+')}(?![A-Z0-9_])`).test(bare)) last = i;
    const inCondition = last === -1 || CLAUSES[last] === 'HAVING';
    // After "LIMIT n" only OFFSET may come, which the server's list leaves out.
    const extra = CLAUSES[last] === 'LIMIT' && /\d\s+$/.test(bare) ? [{ value: 'OFFSET', type: 'keyword', label: 'skip rows' }] : [];
    return [...suggestions, ...extra].filter((s) => {
      if (s.type !== 'keyword') return true;
      const v = s.value.toUpperCase();
      if (v === 'AND' || v === 'OR') return inCondition;
      const rank = clauseOf(v);
      return rank === -1 || rank > last;
    });
  }

  window.Alpine.data('mrqlPage', (init) => ({
    query: init.query,
    savedId: init.savedId,
    saved: init.saved,
    params: [],
    values: {},
    valid: true,
    status: '',
    underline: '',
    suggestions: [],
    picked: 0,
    result: null,
    error: '',
    plan: '',
    view: 'cards',
    page: 1,
    limit: 50,
    saveName: '',
    saveDescription: '',
    timer: null,
    async init() {
      await this.validate();
      if (init.autorun) await this.run(1);
      else if (this.params.length) this.$nextTick(() => this.$root.querySelector('input[data-param]')?.focus());
    },
    changed() {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.validate();
        this.suggest();
      }, 150);
    },
    async validate() {
      if (this.query.trim() === '') {
        this.valid = true;
        this.status = '';
        this.underline = '';
        this.params = [];
        return;
      }
      const { data } = await post('/v1/mrql/validate', { query: this.query });
      this.valid = data.valid;
      this.params = data.params || [];
      for (const p of this.params) if (!(p in this.values)) this.values[p] = '';
      const e = data.errors && data.errors[0];
      this.status = e ? `${e.message} (at ${e.position})` : 'valid';
      if (e) {
        // Positions are UTF-8 byte offsets; underline the same bytes.
        const bytes = enc.encode(this.query);
        const start = Math.min(e.position, bytes.length);
        const end = Math.min(bytes.length, start + Math.max(1, e.length));
        this.underline = `${escapeHtml(dec.decode(bytes.slice(0, start)))}<mark>${escapeHtml(dec.decode(bytes.slice(start, end))) || ' '}</mark>`;
      } else this.underline = '';
    },
    cursorBytes() {
      const el = this.$root.querySelector('#mrql-query');
      return enc.encode(this.query.slice(0, el ? el.selectionStart : this.query.length)).length;
    },
    currentWord() {
      const el = this.$root.querySelector('#mrql-query');
      const before = this.query.slice(0, el ? el.selectionStart : this.query.length);
      const m = /[A-Za-z_][A-Za-z0-9_.]*$/.exec(before);
      return m ? m[0] : '';
    },
    async suggest() {
      // Ask for what may stand where the word being typed starts (after its last dot), so the
      // word itself never changes the context: "…\"x\" ORD" completes to ORDER BY, not a field.
      const word = this.currentWord();
      const typed = word.includes('.') ? word.slice(word.lastIndexOf('.') + 1) : word;
      const start = this.cursorBytes() - enc.encode(typed).length;
      const { data } = await post('/v1/mrql/complete', { query: this.query, cursor: start });
      const before = dec.decode(enc.encode(this.query).slice(0, start));
      const lower = typed.toLowerCase();
      this.suggestions = followers(before, data.suggestions || [])
        .filter((s) => s.value.toLowerCase().startsWith(lower) && s.value.toLowerCase() !== lower)
        .slice(0, 12);
      this.picked = 0;
      // Which text the list answers (tests wait for it; the list itself may be empty).
      this.$root.dataset.completedFor = this.query;
    },
    accept(s) {
      const el = this.$root.querySelector('#mrql-query');
      const at = el.selectionStart;
      const before = this.query.slice(0, at);
      const word = this.currentWord();
      const cut = word.includes('.') ? word.length - word.lastIndexOf('.') - 1 : word.length;
      const insert = s.value + (s.value.endsWith('(') || s.value.endsWith('.') ? '' : ' ');
      this.query = before.slice(0, before.length - cut) + insert + this.query.slice(at);
      this.suggestions = [];
      this.$nextTick(() => {
        const pos = at - cut + insert.length;
        el.focus();
        el.setSelectionRange(pos, pos);
        this.changed();
      });
    },
    blur() {
      // Let a click on a suggestion land before the list closes.
      setTimeout(() => (this.suggestions = []), 150);
    },
    keydown(ev) {
      if ((ev.ctrlKey || ev.metaKey) && ev.key === 'Enter') {
        ev.preventDefault();
        this.run(1);
        return;
      }
      if (ev.ctrlKey && ev.key === ' ') {
        ev.preventDefault();
        this.suggest();
        return;
      }
      if (!this.suggestions.length) return;
      if (ev.key === 'ArrowDown') this.picked = (this.picked + 1) % this.suggestions.length;
      else if (ev.key === 'ArrowUp') this.picked = (this.picked + this.suggestions.length - 1) % this.suggestions.length;
      else if (ev.key === 'Tab' || ev.key === 'Enter') this.accept(this.suggestions[this.picked]);
      else if (ev.key === 'Escape') this.suggestions = [];
      else return;
      ev.preventDefault();
    },
    paramBody() {
      const out = {};
      for (const p of this.params) out[p] = this.values[p] ?? '';
      return out;
    },
    async run(page, offset) {
      this.error = '';
      this.plan = '';
      this.suggestions = [];
      if (page) this.page = page;
      const body = { query: this.query, params: this.paramBody() };
      if (offset) body.offset = offset;
      else if (page) {
        body.page = this.page;
        body.limit = this.limit;
      }
      const { ok, data } = await post('/v1/mrql?render=1', body);
      if (!ok) {
        this.error = data.error;
        this.result = null;
        return;
      }
      this.result = data;
    },
    async explain() {
      const { ok, data } = await post('/v1/mrql/explain', { query: this.query, params: this.paramBody() });
      this.plan = ok ? data.statements.map((s) => `-- ${s.label}\n${s.interpolated}`).join('\n\n') : '';
      this.error = ok ? '' : data.error;
    },
    exportUrl(format) {
      const q = new URLSearchParams({ query: this.query, format });
      for (const [k, v] of Object.entries(this.paramBody())) q.set(`param.${k}`, v);
      return `/v1/mrql/export?${q}`;
    },
    items() {
      const r = this.result;
      if (!r || r.mode) return [];
      return [...r.resources.map((entity) => ({ type: 'resource', entity })), ...r.notes.map((entity) => ({ type: 'note', entity })), ...r.groups.map((entity) => ({ type: 'group', entity }))];
    },
    hasMore() {
      const r = this.result;
      return r && !r.mode && r.counts.resources + r.counts.notes + r.counts.groups >= this.limit && r.entityType !== 'all';
    },
    summary() {
      const r = this.result;
      if (!r) return '';
      if (r.mode === 'aggregated') return `${r.rows.length} rows`;
      if (r.mode === 'bucketed') return `${r.buckets.length} of ${r.totalGroups} groups`;
      const n = r.counts.resources + r.counts.notes + r.counts.groups;
      return `${n} result${n === 1 ? '' : 's'} (page ${this.page})${r.warnings.length ? ' — ' + r.warnings.join('; ') : ''}`;
    },
    bucketLabel(b) {
      return Object.entries(b.key).filter(([k]) => !k.endsWith('_id')).map(([k, v]) => `${k}: ${v === null ? '—' : v}`).join(', ') + ` (${b.items.length})`;
    },
    async save() {
      const { ok, data } = await post('/v1/mrql/saved', { name: this.saveName, query: this.query, description: this.saveDescription });
      if (!ok) {
        this.error = data.error;
        return;
      }
      this.saved = [...this.saved, data].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
      this.saveName = '';
      this.saveDescription = '';
    },
    async remove(s) {
      if (!confirm(`Delete the saved query "${s.name}"?`)) return;
      const { ok, data } = await post(`/v1/mrql/saved/delete?id=${s.id}`, {});
      if (!ok) this.error = data.error;
      else this.saved = this.saved.filter((x) => x.id !== s.id);
    },
  }));
});
