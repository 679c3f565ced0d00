// The account page: minting an API token shows the raw token once (creation stays blocked until
// it is dismissed), and the display settings save as soon as they change.
document.addEventListener('alpine:init', () => {
  window.Alpine.data('tokenMinter', () => ({
    minted: null,
    copied: false,
    busy: false,
    error: '',
    async mint(form) {
      this.busy = true;
      this.error = '';
      try {
        const data = Object.fromEntries(new FormData(form));
        if (!data.expiresIn) delete data.expiresIn;
        const res = await fetch('/v1/account/tokens', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(data),
        });
        const body = await res.json();
        if (!res.ok) {
          this.error = body.error || 'The token could not be created.';
          return;
        }
        this.minted = body;
        form.reset();
        // Focus moves to the token (the form it came from is hidden now).
        this.$nextTick(() => {
          this.$refs.token.focus();
          this.$refs.token.select();
        });
      } finally {
        this.busy = false;
      }
    },
    async copy() {
      try {
        await navigator.clipboard.writeText(this.minted.token);
      } catch {
        this.$refs.token.select();
        document.execCommand('copy');
      }
      this.copied = true;
    },
    dismiss() {
      // Forget the raw token before showing the list again.
      this.minted = null;
      window.location.reload();
    },
  }));

  window.Alpine.data('accountSetting', (key, initial) => ({
    on: initial,
    error: '',
    async save() {
      this.error = '';
      const res = await fetch(`/v1/account/settings/${encodeURIComponent(key)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ value: this.on }),
      });
      if (!res.ok) this.error = (await res.json()).error || 'Not saved.';
    },
  }));
});
