// DOM helpers of the clip interface. Everything the API returns is user data (clip names, tag
// names, text content), so nodes are built with textContent and attributes, never from markup.

/**
 * h('button', { class: 'x', onclick: fn, 'aria-label': 'Open' }, 'text', otherNode)
 * Keys starting with "on" become listeners; `dataset` sets data-*; booleans toggle attributes.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A labelled form field: <label class="field"><span>Label</span>control<small>hint</small></label>. */
export function field(label, control, hint) {
  return h('label', { class: 'field' }, h('span', {}, label), control, hint ? h('small', {}, hint) : null);
}

export function checkbox(label, attrs = {}) {
  return h('label', { class: 'field checkbox' }, h('input', { type: 'checkbox', ...attrs }), h('span', {}, label));
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
export function formatSize(bytes) {
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(n < 10 ? 1 : 0)} ${UNITS[i]}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS = [
  [60, 'second'],
  [60, 'minute'],
  [24, 'hour'],
  [30, 'day'],
  [12, 'month'],
  [Infinity, 'year'],
];

/** "5 minutes ago" with the exact instant as the title and datetime. */
export function timeAgo(iso) {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return h('span', {}, String(iso ?? ''));
  let delta = (then.getTime() - Date.now()) / 1000;
  let text = '';
  for (const [size, unit] of STEPS) {
    if (Math.abs(delta) < size) {
      text = relative.format(Math.round(delta), unit);
      break;
    }
    delta /= size;
  }
  return h('time', { datetime: then.toISOString(), title: then.toLocaleString() }, text);
}

/** A tag colour from the API, only when it is a plain #RRGGBB (it is applied through CSSOM). */
export function safeColor(color) {
  return typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color) ? color : null;
}

export function colorDot(color) {
  const dot = h('span', { class: 'dot', 'aria-hidden': 'true' });
  const c = safeColor(color);
  if (c) dot.style.backgroundColor = c;
  return dot;
}

/** What kind of preview a content type gets. */
export function kindOf(type) {
  const t = String(type || '');
  if (t === 'image/svg+xml') return 'image';
  if (t.startsWith('image/')) return 'image';
  if (t.startsWith('video/')) return 'video';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('text/') || t === 'application/json' || t.endsWith('+json') || t === 'application/xml') return 'text';
  return 'file';
}

const LABELS = {
  'application/pdf': 'PDF',
  'application/zip': 'ZIP',
  'application/gzip': 'GZ',
  'application/x-tar': 'TAR',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  'application/octet-stream': 'BIN',
};

/** The short label on a file icon: PDF, ZIP, MP4 … from the type, else the name's extension. */
export function typeLabel(type, filename) {
  if (LABELS[type]) return LABELS[type];
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(filename || '');
  if (ext) return ext[1].toUpperCase();
  const sub = String(type || '').split('/')[1] || 'file';
  return sub.replace(/^x-/, '').slice(0, 5).toUpperCase();
}

const SVG = 'http://www.w3.org/2000/svg';
/** A document icon with the type's label, for clips without a visual preview. */
export function fileIcon(type, filename) {
  const kind = kindOf(type);
  const wrap = h('span', { class: `file-icon kind-${kind}`, 'aria-hidden': 'true' });
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 40 48');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', 'M4 2h22l10 10v32a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2z M26 2v10h10');
  svg.append(path);
  wrap.append(svg, h('span', { class: 'file-label' }, typeLabel(type, filename)));
  return wrap;
}

/** A clip's display name: its filename, or a description when it has none. */
export function clipName(clip) {
  return clip.filename || `Untitled ${kindOf(clip.content_type) === 'text' ? 'text' : 'clip'} #${clip.id}`;
}

/** Saves a Blob under a file name through a temporary object URL. */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename || 'download' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name of a Content-Disposition header (RFC 5987 form first). */
export function dispositionName(header, fallback) {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : fallback;
}
