// The lightbox (companion §6.5, issue 16 item 3): any element with data-lightbox-id opens the
// resource's viewer (/resource/viewer.body, rendered and escaped by the server) in a modal
// dialog. Previous/next walk every resource on the page; keys: ←/→ and PageUp/PageDown
// (previous/next), Escape (close), + / - / 0 (zoom in, out, fit), Enter or F (fullscreen);
// double-click toggles native size, Ctrl + wheel zooms keeping the point under the cursor in
// place, and the Zoom menu holds the presets Fit, Stretch and 25–500 %. Focus returns to the opener. Past
// the last (or before the first) resource of the page it loads the list's next (previous) page
// and carries on. Every shown resource is announced with a lightbox:show event, which the info
// and quick-tag panels (public/lightbox-panels.js) follow.
(() => {
  'use strict';

  const ZOOMS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5];
  // Zoom is 'fit' (shrink to the window, never enlarge), 'stretch' (fill the window, enlarging
  // small images) or a factor of the native size.
  let dialog = null;
  let items = [];
  let index = 0;
  let opener = null;
  let loading = 0;
  let zoom = 'fit';
  // The list pages around the one shown (their rel=prev/next links), for walking past its ends.
  let prevUrl = null;
  let nextUrl = null;

  function itemsOf(root) {
    const seen = new Set();
    const out = [];
    for (const node of root.querySelectorAll('[data-lightbox-id]')) {
      const id = node.getAttribute('data-lightbox-id');
      if (seen.has(id) || (dialog && dialog.contains(node))) continue;
      seen.add(id);
      out.push({ id, name: node.getAttribute('data-lightbox-name') || `Resource ${id}` });
    }
    return out;
  }

  const pageLink = (root, rel, base) => {
    const a = root.querySelector(`.pagination a[rel="${rel}"]`);
    return a ? new URL(a.getAttribute('href'), base).href : null;
  };

  function collect() {
    items = itemsOf(document);
    prevUrl = pageLink(document, 'prev', location.href);
    nextUrl = pageLink(document, 'next', location.href);
  }

  /** Loads the list page at `url`; its resources not already walked, and its own page links. */
  async function loadPage(url) {
    const res = await fetch(url, { headers: { accept: 'text/html' } });
    if (!res.ok) throw new Error(`the next page could not be loaded (${res.status})`);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const known = new Set(items.map((it) => it.id));
    return { fresh: itemsOf(doc).filter((it) => !known.has(it.id)), prev: pageLink(doc, 'prev', url), next: pageLink(doc, 'next', url) };
  }

  const countText = () => `${index + 1} of ${items.length}${nextUrl || prevUrl ? '+' : ''}`;

  function button(label, cls, onClick, text) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.setAttribute('aria-label', label);
    b.title = label;
    b.textContent = text;
    b.addEventListener('click', onClick);
    return b;
  }

  function build() {
    dialog = document.createElement('dialog');
    dialog.className = 'lightbox';
    dialog.setAttribute('aria-labelledby', 'lightbox-title');
    dialog.dataset.testid = 'lightbox';
    const frame = document.createElement('div');
    frame.className = 'lightbox-frame';
    const bar = document.createElement('div');
    bar.className = 'lightbox-bar';
    const title = document.createElement('h2');
    title.id = 'lightbox-title';
    title.className = 'lightbox-title';
    const count = document.createElement('span');
    count.className = 'lightbox-count';
    count.setAttribute('aria-live', 'polite');
    const details = document.createElement('a');
    details.className = 'button secondary lightbox-details';
    details.textContent = 'Details';
    const zoomOut = button('Zoom out (-)', 'secondary lightbox-zoom', () => step(-1), '−');
    const presets = document.createElement('select');
    presets.className = 'lightbox-zoom lightbox-zoom-preset';
    presets.name = 'zoom';
    presets.setAttribute('aria-label', 'Zoom (0 fits)');
    presets.title = 'Zoom (0 fits)';
    for (const [value, label] of [['fit', 'Fit'], ['stretch', 'Stretch'], ...ZOOMS.map((z) => [String(z), `${Math.round(z * 100)} %`])]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      presets.append(option);
    }
    presets.addEventListener('change', () => setZoom(Number(presets.value) || presets.value));
    const zoomIn = button('Zoom in (+)', 'secondary lightbox-zoom', () => step(1), '+');
    const close = button('Close (Esc)', 'secondary lightbox-close', () => dialog.close(), '✕');
    bar.append(title, count, zoomOut, presets, zoomIn, details, close);
    const body = document.createElement('div');
    body.className = 'lightbox-body';
    const content = document.createElement('div');
    content.className = 'lightbox-content';
    const prev = button('Previous (←)', 'secondary lightbox-nav lightbox-prev', () => go(-1), '‹');
    const next = button('Next (→)', 'secondary lightbox-nav lightbox-next', () => go(1), '›');
    body.append(prev, content, next);
    frame.append(bar, body);
    dialog.append(frame);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      content.replaceChildren();
      if (opener && document.contains(opener)) opener.focus();
    });
    dialog.addEventListener('keydown', onKey);
    body.addEventListener(
      'wheel',
      (ev) => {
        if (!ev.ctrlKey || !image()) return;
        ev.preventDefault();
        step(ev.deltaY < 0 ? 1 : -1, ev);
      },
      { passive: false },
    );
    dialog.addEventListener('click', (ev) => {
      if (ev.target === dialog) dialog.close(); // a click on the backdrop
    });
  }

  const part = (sel) => dialog.querySelector(sel);
  const image = () => part('.lightbox-content .viewer-image');

  /** Sets the zoom; with `at` (a pointer event) the image point under the pointer stays put. */
  function setZoom(z, at) {
    zoom = z;
    const img = image();
    const stage = part('.lightbox-content .viewer-stage');
    part('.lightbox-zoom-preset').value = String(z);
    if (!img || !stage) return;
    const before = at ? img.getBoundingClientRect() : null;
    if (typeof z === 'string') {
      stage.dataset.zoom = z;
      img.style.width = '';
    } else {
      stage.dataset.zoom = 'native';
      img.style.width = `${Math.round((img.naturalWidth || img.width) * z)}px`;
    }
    if (before && before.width > 0) {
      const after = img.getBoundingClientRect();
      const fx = (at.clientX - before.left) / before.width;
      const fy = (at.clientY - before.top) / before.height;
      // The stage is the element that scrolls round a zoomed image.
      stage.scrollLeft += after.left + fx * after.width - at.clientX;
      stage.scrollTop += after.top + fy * after.height - at.clientY;
    }
    part('.lightbox-count').textContent = `${countText()}${typeof z === 'number' ? ` · ${Math.round(z * 100)} %` : ''}`;
  }

  function step(dir, at) {
    const img = image();
    if (!img) return;
    const current = typeof zoom === 'number' ? zoom : img.clientWidth && img.naturalWidth ? img.clientWidth / img.naturalWidth : 1;
    const next = dir > 0 ? ZOOMS.find((z) => z > current + 0.001) : [...ZOOMS].reverse().find((z) => z < current - 0.001);
    if (next) setZoom(next, at);
  }

  async function show(i) {
    index = (i + items.length) % items.length;
    const item = items[index];
    const ticket = ++loading;
    zoom = 'fit';
    part('.lightbox-zoom-preset').value = 'fit';
    part('.lightbox-title').textContent = item.name;
    part('.lightbox-count').textContent = countText();
    part('.lightbox-details').href = `/resource?id=${encodeURIComponent(item.id)}`;
    for (const nav of dialog.querySelectorAll('.lightbox-nav')) nav.hidden = items.length < 2 && !nextUrl && !prevUrl;
    dialog.dispatchEvent(new CustomEvent('lightbox:show', { bubbles: true, detail: { id: item.id, name: item.name } }));
    const content = part('.lightbox-content');
    content.setAttribute('aria-busy', 'true');
    let html;
    try {
      const res = await fetch(`/resource/viewer.body?id=${encodeURIComponent(item.id)}`, { headers: { accept: 'text/html' } });
      html = res.ok ? await res.text() : null;
    } catch {
      html = null;
    }
    if (ticket !== loading) return; // a newer request won
    content.removeAttribute('aria-busy');
    if (html === null) {
      const p = document.createElement('p');
      p.className = 'error-banner';
      p.textContent = 'This file could not be loaded.';
      content.replaceChildren(p);
      return;
    }
    // Server-rendered and escaped by the page's own templates.
    content.innerHTML = html;
    for (const z of dialog.querySelectorAll('.lightbox-zoom')) z.hidden = !image();
  }

  let paging = null;
  async function go(delta) {
    if (paging) return;
    const edge = delta > 0 ? index === items.length - 1 && nextUrl : index === 0 && prevUrl;
    if (!edge) {
      if (items.length > 1) show(index + delta);
      return;
    }
    part('.lightbox-count').textContent = 'Loading the next page…';
    try {
      paging = loadPage(delta > 0 ? nextUrl : prevUrl);
      const page = await paging;
      if (delta > 0) {
        items = [...items, ...page.fresh];
        nextUrl = page.fresh.length ? page.next : null;
      } else {
        items = [...page.fresh, ...items];
        index += page.fresh.length;
        prevUrl = page.fresh.length ? page.prev : null;
      }
    } catch {
      if (delta > 0) nextUrl = null;
      else prevUrl = null;
    } finally {
      paging = null;
    }
    show(index + delta);
  }

  function onKey(ev) {
    const t = ev.target;
    const inMedia = t instanceof HTMLMediaElement;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    if (typing) return;
    if ((ev.key === 'ArrowLeft' && !inMedia) || ev.key === 'PageUp') {
      ev.preventDefault();
      go(-1);
    } else if ((ev.key === 'ArrowRight' && !inMedia) || ev.key === 'PageDown') {
      ev.preventDefault();
      go(1);
    } else if (ev.key === '+' || ev.key === '=') {
      ev.preventDefault();
      step(1);
    } else if (ev.key === '-') {
      ev.preventDefault();
      step(-1);
    } else if (ev.key === '0') {
      ev.preventDefault();
      setZoom('fit');
    } else if ((ev.key === 'Enter' && !(t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement)) || ev.key === 'f' || ev.key === 'F') {
      ev.preventDefault();
      if (document.fullscreenElement) document.exitFullscreen();
      else dialog.requestFullscreen?.().catch(() => {});
    }
  }

  function open(id, from) {
    collect();
    const at = items.findIndex((it) => it.id === id);
    if (at < 0) return;
    if (!dialog) build();
    opener = from;
    if (!dialog.open) dialog.showModal();
    part('.lightbox-close').focus();
    show(at);
  }

  document.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const link = ev.target instanceof Element ? ev.target.closest('[data-lightbox-id]') : null;
    if (!link || (dialog && dialog.contains(link))) return;
    ev.preventDefault();
    open(link.getAttribute('data-lightbox-id'), link);
  });

  // Double-click anywhere on an image viewer (page or lightbox) toggles fit and native size.
  document.addEventListener('dblclick', (ev) => {
    const img = ev.target instanceof Element ? ev.target.closest('.viewer-image') : null;
    if (!img) return;
    const stage = img.closest('.viewer-stage');
    if (dialog && dialog.contains(img)) setZoom(stage.dataset.zoom === 'native' ? 'fit' : 1, ev);
    else stage.dataset.zoom = stage.dataset.zoom === 'fit' ? 'native' : 'fit';
  });
})();
