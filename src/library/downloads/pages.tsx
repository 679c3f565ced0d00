// The downloads page (companion §6.4): submit URLs, watch the queue live through the event
// stream, and browse the durable history with its filters, retrying or deleting rows.
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { Field, FormPage, Pagination, PostButton, TextArea, firstOf, listOf, queryOf } from '../ui/components.js';
import { When } from '../ui/dates.js';
import { HistoryListInput } from './routes.js';
import { REASONS } from './reasons.js';
import type { DownloadService } from './service.js';
import { formatBytes } from '../admin/stats.js';

/** Plugin action jobs (library-plugins.md §17.6), from the action_* events of the same stream. */
function ActionJobs(): SafeHtml {
  return (
    <div x-show="actionJobs.length > 0" data-testid="action-jobs">
      <h3>Plugin jobs</h3>
      <table class="list">
        <thead>
          <tr>
            <th>Job</th>
            <th>Status</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          <template x-for="job in actionJobs" {...{ ':key': 'job.id' }}>
            <tr {...{ ':data-status': 'job.status' }}>
              <td>
                <span x-text="job.label"></span>
                <br />
                <small class="empty" x-text="job.pluginName + ' · ' + job.actionId"></small>
              </td>
              <td>
                <span x-text="job.status"></span>
                <br />
                <progress class="job-progress" max="100" {...{ ':value': 'job.progress', ':aria-label': "'Progress of ' + job.label" }}></progress> <small x-text="job.progress + '%'"></small>
              </td>
              <td x-text="actionText(job)"></td>
            </tr>
          </template>
        </tbody>
      </table>
    </div>
  );
}

function LiveQueue(): SafeHtml {
  return (
    <section class="card" x-data="jobQueue" data-testid="job-queue">
      <h2>Queue</h2>
      <p class="error-banner" x-show="error" x-text="error"></p>
      <table class="list">
        <thead>
          <tr>
            <th>URL</th>
            <th>Status</th>
            <th>Progress</th>
            <th>
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <template x-for="job in jobs" {...{ ':key': 'job.id' }}>
            <tr {...{ ':data-status': 'job.status' }}>
              <td x-text="job.url || job.source"></td>
              <td>
                <span x-text="job.status"></span> <small class="empty" x-text="job.error || ''"></small>
              </td>
              <td>
                <progress max="100" {...{ ':value': 'job.progressPercent >= 0 ? job.progressPercent : null', ':aria-label': "'Progress of ' + (job.url || job.source)" }}></progress> <small x-text="percent(job)"></small>
              </td>
              <td>
                <template x-for="action in ['pause', 'resume', 'retry', 'cancel']">
                  <button type="button" x-show="can(job, action)" x-text="action" {...{ '@click': 'control(job, action)' }}></button>
                </template>
              </td>
            </tr>
          </template>
        </tbody>
      </table>
      <p class="empty" x-show="jobs.length === 0">
        The queue is empty.
      </p>
      <ActionJobs />
      <p class="visually-hidden" role="status" aria-live="polite" x-text="announcement"></p>
      <button type="button" class="job-clear" {...{ '@click': 'clear()' }}>
        Clear finished
      </button>
    </section>
  );
}

function HistoryFilters(props: { q: Record<string, string | string[]> }): SafeHtml {
  const statuses = listOf(props.q.Status);
  return (
    <form method="get" action="/downloads" class="filters">
      <h2>History filters</h2>
      <fieldset class="field">
        <span>Status</span>
        {['completed', 'failed', 'cancelled'].map((s) => (
          <label>
            <input type="checkbox" name="Status" value={s} checked={statuses.includes(s)} /> {s}
          </label>
        ))}
      </fieldset>
      <Field label="URL or name" name="URL" value={firstOf(props.q.URL)} />
      <label class="field">
        <span>Reason</span>
        <select name="Reason">
          <option value="">any</option>
          {REASONS.map((r) => (
            <option value={r} selected={firstOf(props.q.Reason) === r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <Field label="Error text" name="Error" value={firstOf(props.q.Error)} />
      <label class="field">
        <span>Retried</span>
        <select name="Retried">
          {[
            ['', 'any'],
            ['yes', 'yes'],
            ['no', 'no'],
          ].map(([v, l]) => (
            <option value={v} selected={firstOf(props.q.Retried) === v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <Field label="Finished after" name="CompletedAfter" type="date" value={firstOf(props.q.CompletedAfter)} />
      <Field label="Finished before" name="CompletedBefore" type="date" value={firstOf(props.q.CompletedBefore)} />
      <button type="submit">Apply</button>
    </form>
  );
}

export function registerDownloadPages(app: FastifyInstance, layout: Layout, downloads: DownloadService): void {
  registerPage(app, layout, {
    path: '/downloads',
    needs: 'read',
    load: async (req) => {
      const input = readParams(HistoryListInput, makeBag(req.query));
      const p = req.principal;
      const history = await downloads.history.list(input, p.superUser || p.role === 'admin' ? null : p.userId);
      const q = queryOf(req);
      return {
        pageTitle: 'Downloads',
        downloads: history.downloads,
        pagination: { page: history.page, perPage: history.pageSize, total: history.count },
        parsedQuery: input,
        errorMessage: firstOf(q.error) || undefined,
        _layout: { sidebar: <HistoryFilters q={q} /> },
      };
    },
    view: (ctx, req) => (
      <div>
        <script src="/public/jobs.js"></script>
        <form method="post" action="/v1/jobs/download/submit" class="card form">
          <FormPage req={req} />
          <TextArea label="Download URLs (one per line)" name="URL" rows={3} />
          <Field label="Name (optional)" name="Name" />
          <button type="submit">Download</button>
        </form>
        <LiveQueue />
        <section class="card">
          <h2>History</h2>
          <table class="list" data-testid="download-history">
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Size</th>
                <th>Finished</th>
                <th>
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ctx.downloads.map((d) => (
                <tr>
                  <td>
                    {d.resourceId ? <a href={`/resource?id=${String(d.resourceId)}`}>{String(d.name)}</a> : String(d.name)}
                    <br />
                    <small class="empty">{String(d.url)}</small>
                  </td>
                  <td>
                    {String(d.status)}
                    {d.error ? <small class="empty"> · {String(d.error)}</small> : null}
                  </td>
                  <td>{Number(d.totalSize) >= 0 ? formatBytes(Number(d.totalSize)) : '?'}</td>
                  <td><When at={d.completedAt ? String(d.completedAt) : null} /></td>
                  <td>
                    {d.status !== 'completed' ? <PostButton action="/v1/downloads/retry" label="Retry" fields={{ ids: Number(d.id), _form: req.url }} /> : null}{' '}
                    <PostButton action="/v1/downloads/delete" label="Delete" danger fields={{ ids: Number(d.id), _form: req.url }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {ctx.downloads.length === 0 ? <p class="empty">No downloads match.</p> : null}
          <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.downloads.length} total={ctx.pagination.total} />
        </section>
      </div>
    ),
  });
}
