// Runtime settings editor: each row saves with PUT and resets with DELETE, then reloads the
// page so defaults and "changed" markers stay true. Durations are typed in human units; the
// API takes Go units, which have no day, so days become hours before sending.
document.addEventListener('alpine:init', () => {
  const toGo = (text) => text.trim().replace(/(\d+(?:\.\d+)?)d/g, (_, n) => `${Number(n) * 24}h`);
  window.Alpine.data('setting', (config) => ({
    value: config.value,
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
      const value = config.kind === 'duration' ? toGo(this.value) : this.value;
      return this.send('PUT', { value, reason: this.reason });
    },
    reset() {
      return this.send('DELETE', { reason: this.reason });
    },
  }));
});
