// The global search box of every page (companion §6.3, mrql.md §14.9): Ctrl/Cmd+K focuses it,
// results come from /v1/search, and a "Run MRQL query" entry appears when the text is MRQL.
(() => {
  const box = document.getElementById('global-search');
  const list = document.getElementById('global-search-results');
  if (!box || !list) return;
  let timer = null;
  let active = -1;
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

  document.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'k') {
      ev.preventDefault();
      box.focus();
      box.select();
    }
  });

  const links = () => [...list.querySelectorAll('a')];
  const show = (html) => {
    list.innerHTML = html;
    list.hidden = html === '';
    active = -1;
  };

  async function lookup() {
    const q = box.value.trim();
    if (q === '') return show('');
    const [search, check] = await Promise.all([
      fetch(`/v1/search?${new URLSearchParams({ q, limit: '10' })}`, { headers: { accept: 'application/json' } }).then((r) => (r.ok ? r.json() : { results: [] })),
      fetch('/v1/mrql/validate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) }).then((r) => (r.ok ? r.json() : { valid: false })),
    ]);
    if (box.value.trim() !== q) return; // a newer keystroke is on its way
    let html = search.results.map((r) => `<li><a href="${escapeHtml(r.url)}"><span>${escapeHtml(r.name)}</span> <small>${escapeHtml(r.type)}</small></a></li>`).join('');
    if (check.valid) html = `<li class="mrql-entry"><a href="/mrql?q=${encodeURIComponent(q)}">Run MRQL query <code>${escapeHtml(q)}</code></a></li>` + html;
    show(html || '<li class="empty">No results</li>');
  }

  box.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(lookup, 150);
  });
  box.addEventListener('keydown', (ev) => {
    const items = links();
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (!items.length) return;
      active = (active + (ev.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items.forEach((a, i) => a.classList.toggle('active', i === active));
    } else if (ev.key === 'Enter' && items.length) {
      ev.preventDefault();
      window.location.href = (items[active] ?? items[0]).getAttribute('href');
    } else if (ev.key === 'Escape') {
      show('');
      box.blur();
    }
  });
  document.addEventListener('click', (ev) => {
    if (!list.contains(ev.target) && ev.target !== box) show('');
  });
})();
