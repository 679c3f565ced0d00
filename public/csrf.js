// Adds the session's CSRF token (published in <meta name="csrf-token">; empty with auth off or
// without a session) to every same-origin write: an X-CSRF-Token header on fetch and
// XMLHttpRequest, a csrf_token field on url-encoded forms, and a csrf_token query parameter on
// multipart forms so the server can check it before reading the upload (companion §10.6).
(() => {
  const SAFE = /^(get|head|options|trace|dialog)$/i;
  const token = () => document.querySelector('meta[name="csrf-token"]')?.content || '';
  const sameOrigin = (url) => {
    try {
      return new URL(url, window.location.href).origin === window.location.origin;
    } catch {
      return false;
    }
  };

  const originalFetch = window.fetch;
  window.fetch = function (input, init) {
    const t = token();
    const request = input instanceof Request ? input : null;
    const method = (init && init.method) || (request ? request.method : 'GET');
    const url = request ? request.url : String(input);
    if (t && !SAFE.test(method) && sameOrigin(url)) {
      const headers = new Headers((init && init.headers) || (request ? request.headers : undefined));
      if (!headers.has('X-CSRF-Token')) headers.set('X-CSRF-Token', t);
      init = { ...(init || {}), headers };
    }
    return originalFetch.call(this, input, init);
  };

  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.stacksCsrf = !SAFE.test(method) && sameOrigin(url);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    const t = token();
    if (this.stacksCsrf && t) this.setRequestHeader('X-CSRF-Token', t);
    return send.call(this, body);
  };

  // Capture phase: runs before any form's own submit handler.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      const t = token();
      if (!(form instanceof HTMLFormElement) || !t || SAFE.test(form.method) || !sameOrigin(form.action)) return;
      if (form.enctype === 'multipart/form-data') {
        const url = new URL(form.action, window.location.href);
        url.searchParams.set('csrf_token', t);
        form.action = url.pathname + url.search;
        return;
      }
      let field = form.querySelector('input[name="csrf_token"]');
      if (!field) {
        field = document.createElement('input');
        field.type = 'hidden';
        field.name = 'csrf_token';
        form.appendChild(field);
      }
      field.value = t;
    },
    true,
  );
})();
