// Backup and restore (admin): download the whole store as a ZIP, or replace it with one.
import { api } from './api.js';
import { h, field, saveBlob, dispositionName } from './dom.js';
import { announce, announceError, can } from './shared.js';

export async function renderBackup() {
  const root = h('section', { class: 'screen', 'aria-labelledby': 'backup-title' }, h('h1', { id: 'backup-title' }, 'Backup'));
  if (!can.admin()) {
    root.append(h('p', { class: 'card' }, 'Backups hold every clip and tag, so they need an admin key.'));
    return root;
  }
  const download = h('button', { type: 'button', id: 'backup-download' }, 'Download backup');
  download.addEventListener('click', async () => {
    download.disabled = true;
    announce('Preparing the backup…');
    try {
      const res = await api('GET', '/backup', undefined, { raw: true });
      const name = dispositionName(res.headers.get('Content-Disposition'), 'clip-service-backup.zip');
      saveBlob(await res.blob(), name);
      announce(`Backup saved as ${name}.`);
    } catch (e) {
      announceError(e, 'Could not make a backup');
    } finally {
      download.disabled = false;
      download.focus();
    }
  });
  const file = h('input', { type: 'file', id: 'restore-file', accept: '.zip,application/zip', required: true });
  const restore = h('form', { class: 'form' }, field('Backup archive', file, 'A ZIP made by “Download backup”. It is checked completely before anything changes.'), h('button', { type: 'submit', class: 'danger' }, 'Restore'));
  restore.addEventListener('submit', async (e) => {
    e.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    if (!window.confirm('Replace every clip, tag and setting with the contents of this backup? API keys stay as they are.')) return;
    const form = new FormData();
    form.append('file', chosen, chosen.name);
    announce('Restoring…');
    try {
      await api('POST', '/backup/restore', undefined, { form });
      announce('Restored. Watch folders are paused after a restore; resume them on the Watch folders screen.');
      file.value = '';
    } catch (err) {
      announceError(err, 'Nothing was changed');
    }
  });
  root.append(
    h('div', { class: 'card' }, h('h2', {}, 'Download'), h('p', {}, 'One ZIP with the database (without API keys) and every clip’s bytes.'), download),
    h('div', { class: 'card danger-zone' }, h('h2', {}, 'Restore'), restore),
  );
  return root;
}
