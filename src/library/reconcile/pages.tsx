// /admin/storage: the dry-run report of the file reconciliation (what would be removed, with
// sizes) and the button that runs it; after a run the page says what was removed.
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { formatBytes } from '../admin/stats.js';
import { PostButton, firstOf, queryOf } from '../ui/components.js';
import type { FileReconciler } from './service.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function registerReconcilePages(app: FastifyInstance, layout: Layout, reconciler: FileReconciler): void {
  registerPage(app, layout, {
    path: '/admin/storage',
    needs: 'system',
    load: async (req) => {
      const q = queryOf(req);
      const removed = firstOf(q.removed);
      return {
        pageTitle: 'Storage reconciliation',
        report: await reconciler.schedule.dryRun(),
        notice:
          removed !== ''
            ? `Reconciliation ran: removed ${count(Number(removed), 'unreferenced file')} (${formatBytes(Number(firstOf(q.bytes) || 0))}) and ${count(Number(firstOf(q.parts) || 0), 'stale upload part')}.`
            : undefined,
      };
    },
    view: (ctx): SafeHtml => {
      const r = ctx.report;
      return (
        <div>
          {ctx.notice ? (
            <div class="notice" role="status" data-testid="reconcile-notice">
              {ctx.notice}
            </div>
          ) : null}
          <section class="card" data-testid="reconcile-report">
            <h2>What a reconciliation would remove now</h2>
            <dl class="timestamps">
              <dt>Stored files checked</dt>
              <dd>{String(r.scanned)}</dd>
              <dt>Files no resource or version references</dt>
              <dd data-testid="orphan-count">
                {count(r.orphans.count, 'file')}, {formatBytes(r.orphans.bytes)}
              </dd>
              <dt>Unreferenced but younger than the grace period</dt>
              <dd>{count(r.young, 'file')} (kept: an upload may still commit them)</dd>
              <dt>Stale upload parts</dt>
              <dd>
                {count(r.tempParts.count, 'part')}, {formatBytes(r.tempParts.bytes)}
              </dd>
              <dt>Grace period</dt>
              <dd>{formatDuration(r.graceMs)}</dd>
            </dl>
            {r.orphans.files.length > 0 ? (
              <table class="list" data-testid="orphan-files">
                <thead>
                  <tr>
                    <th>Filesystem</th>
                    <th>File</th>
                    <th>Size</th>
                    <th>Last modified</th>
                  </tr>
                </thead>
                <tbody>
                  {r.orphans.files.map((f) => (
                    <tr>
                      <td>{f.store}</td>
                      <td>
                        <code>{f.key}</code>
                      </td>
                      <td>{formatBytes(f.size)}</td>
                      <td>{f.modifiedAt}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p>Nothing to remove: every stored file belongs to a resource or a version.</p>
            )}
            {r.orphans.count > r.orphans.files.length ? <p>The first {String(r.orphans.files.length)} are listed.</p> : null}
            <PostButton action="/v1/admin/reconcile" label="Remove them now" confirm="Remove every listed file and stale upload part? This cannot be undone." danger />
          </section>
          <p>
            <a href="/admin/overview">Overview</a> · <a href="/admin/settings">Runtime settings</a>
          </p>
        </div>
      );
    },
  });
}

function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
