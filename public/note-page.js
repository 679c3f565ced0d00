// Note page actions outside the blocks: copying the share link, and unsharing (a DELETE, which
// a plain form cannot send).
(() => {
  'use strict';
  for (const button of document.querySelectorAll('button.copy-share')) {
    button.addEventListener('click', async () => {
      const link = new URL(button.dataset.copy, window.location.href).href;
      try {
        await navigator.clipboard.writeText(button.dataset.copy.startsWith('/') ? button.dataset.copy : link);
        button.textContent = 'Copied';
      } catch {
        window.prompt('Copy the share link:', button.dataset.copy);
      }
    });
  }
  for (const button of document.querySelectorAll('button.unshare')) {
    button.addEventListener('click', async () => {
      if (!window.confirm('Stop sharing this note? The link stops working.')) return;
      const res = await fetch(`/v1/note/share?noteId=${button.dataset.noteId}`, { method: 'DELETE', headers: { accept: 'application/json' } });
      if (res.ok) window.location.reload();
      else window.alert((await res.json().catch(() => ({}))).error || 'Unsharing failed.');
    });
  }
})();
