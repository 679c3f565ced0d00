// Deferred shortcodes (companion §5.3): a <lazy-shortcode> loads when it nears the viewport, a
// <details data-token> on first open; both post their sealed token to /v1/shortcodes/deferred.
(() => {
  const load = async (token) => {
    const res = await fetch('/v1/shortcodes/deferred', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ token }) });
    const data = await res.json().catch(() => ({}));
    return res.ok ? data.html : `<span class="shortcode-error">${res.status === 404 ? 'not available' : 'could not load'}</span>`;
  };
  const lazy = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        lazy.unobserve(e.target);
        load(e.target.dataset.token).then((html) => {
          e.target.innerHTML = html;
        });
      }
    },
    { rootMargin: '200px' },
  );
  const wire = () => {
    for (const el of document.querySelectorAll('lazy-shortcode[data-token]:not([data-wired])')) {
      el.dataset.wired = '1';
      lazy.observe(el);
    }
    for (const el of document.querySelectorAll('details.shortcode-details[data-token]:not([data-wired])')) {
      el.dataset.wired = '1';
      const fill = () => {
        if (el.dataset.loaded) return;
        el.dataset.loaded = '1';
        load(el.dataset.token).then((html) => {
          el.querySelector('noscript')?.remove();
          el.insertAdjacentHTML('beforeend', html);
        });
      };
      if (el.open) fill();
      el.addEventListener('toggle', () => el.open && fill());
    }
  };
  wire();
  new MutationObserver(wire).observe(document.body, { childList: true, subtree: true });
})();

// [reload]: re-render the innermost deferred block or slot region holding the button, else the page.
document.addEventListener('click', async (ev) => {
  const button = ev.target instanceof Element ? ev.target.closest('[data-shortcode-reload]') : null;
  if (!button) return;
  ev.preventDefault();
  const block = button.closest('lazy-shortcode[data-token], details.shortcode-details[data-token], [data-shortcode-region]');
  if (!block) {
    window.location.reload();
    return;
  }
  const token = block.dataset.token || block.dataset.shortcodeRegion;
  const res = await fetch('/v1/shortcodes/deferred', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ token }) });
  if (!res.ok) return window.location.reload();
  const { html } = await res.json();
  if (block.tagName === 'DETAILS') {
    const summary = block.querySelector('summary');
    block.replaceChildren(summary);
    block.insertAdjacentHTML('beforeend', html);
  } else block.innerHTML = html;
});
