// The admin page of shared notes (companion §6.4 /admin/shares): every shared note with its link
// and share date, and bulk revoke (editor under -auth).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { Pagination } from '../ui/components.js';
import { When } from '../ui/dates.js';
import type { ShareService } from './service.js';

export function registerSharePages(app: FastifyInstance, layout: Layout, sharing: ShareService): void {
  registerPage(app, layout, {
    path: '/admin/shares',
    needs: 'editor',
    load: async (req) => {
      const { page } = readParams(Type.Object({ page: Type.Optional(Type.Integer()) }), makeBag(req.query));
      const { rows, page: p, perPage } = await sharing.sharedNotes(page);
      const base = sharing.publicBase;
      return {
        pageTitle: 'Shared notes',
        shares: rows.map((r) => ({ noteId: r.id, name: r.name, shareUrl: `${base}/s/${r.share_token}`, sharedAt: r.share_created_at })),
        pagination: { page: p, perPage },
        shareServerRunning: sharing.running,
      };
    },
    view: (ctx, req) => (
      <section>
        {!ctx.shareServerRunning ? <p class="hint">No share server is running, so these links do not answer right now.</p> : null}
        <form method="post" action="/v1/admin/shares/bulk-revoke" class="card">
          <table class="list" data-testid="share-list">
            <thead>
              <tr>
                <th></th>
                <th>Note</th>
                <th>Share link</th>
                <th>Shared at</th>
              </tr>
            </thead>
            <tbody>
              {ctx.shares.map((s) => (
                <tr>
                  <td>
                    <input type="checkbox" name="ids" value={s.noteId} aria-label={`Select ${s.name}`} />
                  </td>
                  <td>
                    <a href={`/note?id=${s.noteId}`}>{s.name}</a>
                  </td>
                  <td>
                    <code>{s.shareUrl}</code>
                  </td>
                  <td><When at={s.sharedAt ? String(s.sharedAt) : null} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {ctx.shares.length === 0 ? <p class="empty">No note is shared.</p> : <button type="submit" class="danger">Revoke selected</button>}
        </form>
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.shares.length} />
      </section>
    ),
  });
}
