// Runtime settings editor: each row saves with PUT and resets with DELETE, then reloads the
// page so boot defaults and override markers stay true.
document.addEventListener('alpine:init', () => {
  window.Alpine.data('setting', (config) => ({
    value: config.type === 'duration' ? `${Number(config.current) / 1e6}ms` : String(config.current),
    reason: '',
    error: '',
    async send(method, body) {
      const res = await fetch(`/v1/admin/settings/${encodeURIComponent(config.key)}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.ok) window.location.reload();
      else this.error = (await res.json()).error;
    },
    save() {
      return this.send('PUT', { value: this.value, reason: this.reason });
    },
    reset() {
      return this.send('DELETE', { reason: this.reason });
    },
  }));
});
