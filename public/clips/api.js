// Talks to the clip API with the key kept in sessionStorage: never a cookie, never the
// persistent storage, never a URL. A 401 ends the session and brings back the sign-in form.
const KEY = 'stacks.clips.key';
const BASE = '/api/v1';

export const session = {
  get key() {
    return sessionStorage.getItem(KEY);
  },
  set(key) {
    sessionStorage.setItem(KEY, key);
  },
  clear() {
    sessionStorage.removeItem(KEY);
  },
};

let onUnauthorized = () => {};
export function whenUnauthorized(fn) {
  onUnauthorized = fn;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function authHeaders(key = session.key) {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

async function errorOf(res) {
  let message = '';
  try {
    message = (await res.json()).error;
  } catch {
    /* not JSON */
  }
  if (!message) message = res.status === 413 ? 'too large' : `request failed (${res.status})`;
  return new ApiError(res.status, message);
}

/**
 * One API call. `body` is sent as JSON; `raw` returns the Response (downloads); `key` tries a
 * key that is not the session's yet (sign-in).
 */
export async function api(method, path, body, { raw = false, key, form, range } = {}) {
  const headers = authHeaders(key ?? session.key);
  if (range) headers.Range = range;
  let payload;
  if (form) payload = form;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(BASE + path, { method, headers, body: payload, cache: 'no-store', credentials: 'omit' });
  if (res.status === 401 && key === undefined) {
    onUnauthorized();
  }
  if (!res.ok) throw await errorOf(res);
  if (raw) return res;
  if (res.status === 204) return null;
  return res.json();
}

/** Query string from an object, skipping empty values; arrays repeat the name. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => q.append(k, String(x)));
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Uploads one file with progress (fetch reports none for request bodies). Resolves with
 * {status, body} for every answer, so the caller can tell created, duplicate and refused.
 */
export function uploadFile(file, onProgress) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${BASE}/clips`);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status === 401) onUnauthorized();
      resolve({ status: xhr.status, body });
    });
    xhr.addEventListener('error', () => resolve({ status: 0, body: { error: 'the connection failed' } }));
    xhr.addEventListener('abort', () => resolve({ status: 0, body: { error: 'cancelled' } }));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
