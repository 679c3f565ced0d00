// /logs and /log?id=: the audit log table with its filters, and one entry with its details.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { notFound } from '../../core/http/errors.js';
import { pageOf } from '../common/list.js';
import { Field, Pagination, firstOf, queryOf } from '../ui/components.js';
import { LogListInput } from './routes.js';
import { logRecord, type AuditLog } from './service.js';

function LogFilters(props: { q: Record<string, string | string[]> }) {
  const v = (k: string) => firstOf(props.q[k]);
  const select = (name: string, options: string[]) => (
    <label class="field">
      <span>{name}</span>
      <select name={name}>
        <option value="">any</option>
        {options.map((o) => (
          <option value={o} selected={v(name) === o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form method="get" action="/logs" class="filters">
      <h2>Filters</h2>
      {select('Level', ['info', 'warning', 'error'])}
      {select('Action', ['create', 'update', 'delete', 'system', 'progress', 'plugin', 'reset'])}
      <Field label="Entity type" name="EntityType" value={v('EntityType')} />
      <Field label="Entity ID" name="EntityID" value={v('EntityID')} />
      <Field label="Message" name="Message" value={v('Message')} />
      <Field label="Request path" name="RequestPath" value={v('RequestPath')} />
      <Field label="Created after" name="CreatedAfter" type="date" value={v('CreatedAfter')} />
      <Field label="Created before" name="CreatedBefore" type="date" value={v('CreatedBefore')} />
      <button type="submit">Apply</button>
    </form>
  );
}

export function registerAuditPages(app: FastifyInstance, layout: Layout, audit: AuditLog): void {
  registerPage(app, layout, {
    path: '/logs',
    needs: 'system',
    load: async (req) => {
      const input = readParams(LogListInput, makeBag(req.query));
      const { page, perPage, offset } = pageOf(input.page);
      const { rows, total } = await audit.list(input, perPage, offset);
      return {
        pageTitle: 'Logs',
        logs: rows.map(logRecord),
        pagination: { page, perPage, total },
        parsedQuery: input,
        _layout: { sidebar: <LogFilters q={queryOf(req)} /> },
      };
    },
    view: (ctx, req) => (
      <section>
        <table class="list">
          <thead>
            <tr>
              <th>When</th>
              <th>Level</th>
              <th>Action</th>
              <th>Entity</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {ctx.logs.map((l) => (
              <tr>
                <td>
                  <a href={`/log?id=${String(l.id)}`}>{String(l.createdAt).replace('T', ' ').slice(0, 19)}</a>
                </td>
                <td>{String(l.level)}</td>
                <td>{String(l.action)}</td>
                <td>
                  {String(l.entityType)} {l.entityId === null ? '' : `#${String(l.entityId)}`}
                </td>
                <td>{String(l.message)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.logs.length === 0 ? <p class="empty">No entries match.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.logs.length} total={ctx.pagination.total} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/log',
    needs: 'system',
    load: async (req) => {
      const { id } = readParams(Type.Object({ id: Type.Integer() }), makeBag(req.query));
      const row = await audit.get(id);
      if (!row) throw notFound('log entry not found');
      const log = logRecord(row);
      return { pageTitle: `Log entry ${id}`, log };
    },
    view: (ctx) => (
      <section class="card">
        <dl class="timestamps">
          {Object.entries(ctx.log)
            .filter(([k]) => k !== 'details')
            .map(([k, v]) => [<dt>{k}</dt>, <dd>{String(v ?? '')}</dd>])}
        </dl>
        {ctx.log.details === undefined ? null : <pre>{JSON.stringify(ctx.log.details, null, 2)}</pre>}
      </section>
    ),
  });
}
