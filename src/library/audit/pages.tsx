// /logs and /log?id=: the audit log table with its filters, and one entry with its details.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { notFound } from '../../core/http/errors.js';
import { pageOf } from '../common/list.js';
import { Field, Pagination, Picker, firstOf, queryOf, type PickerItem } from '../ui/components.js';
import { picked, type PickSource } from '../ui/picked.js';
import type { PickTable } from '../ui/repository.js';
import { LogListInput } from './routes.js';
import { logRecord, type AuditLog } from './service.js';

/** Entity types whose entities a picker can find; the others are reached from the table. */
const PICKABLE: { type: string; table: PickTable; source: string; label: string }[] = [
  { type: 'resource', table: 'resources', source: '/v1/resources', label: 'Resource' },
  { type: 'note', table: 'notes', source: '/v1/notes', label: 'Note' },
  { type: 'group', table: 'groups', source: '/v1/groups', label: 'Group' },
  { type: 'tag', table: 'tags', source: '/v1/tags/suggest', label: 'Tag' },
];
const OTHER_TYPES = ['category', 'resource_category', 'note_type', 'query', 'relation', 'relation_type', 'series', 'plugin', 'download', 'group_import', 'login', 'runtime_setting', 'similarity', 'template_partial'];

function LogFilters(props: { q: Record<string, string | string[]>; entity: { type: string; item: PickerItem | null } }) {
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
  const type = v('EntityType');
  const types = [...PICKABLE.map((p) => p.type), ...OTHER_TYPES];
  if (type && !types.includes(type)) types.push(type);
  const { item } = props.entity;
  // One entity picker per pickable type; only the one for the chosen type is shown and sent
  // (a disabled fieldset submits nothing). Other types keep a chosen entity from the table.
  return (
    <form method="get" action="/logs" class="filters" x-data={`{ type: ${JSON.stringify(type)} }`}>
      <h2>Filters</h2>
      {select('Level', ['info', 'warning', 'error'])}
      {select('Action', ['create', 'update', 'delete', 'system', 'progress', 'plugin', 'reset'])}
      <label class="field">
        <span>Entity type</span>
        <select name="EntityType" x-model="type">
          <option value="">any</option>
          {types.map((t) => (
            <option value={t} selected={type === t}>
              {t.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </label>
      {PICKABLE.map((p) => (
        <fieldset class="plain" x-show={`type === '${p.type}'`} x-cloak="" disabled={type !== p.type} {...{ ':disabled': `type !== '${p.type}'` }}>
          <Picker label={p.label} name="EntityID" source={p.source} multiple={false} selected={type === p.type && item ? [item] : []} hint="Empty: every one." />
        </fieldset>
      ))}
      {item && !PICKABLE.some((p) => p.type === type) ? (
        <p class="field" x-show={`type === ${JSON.stringify(type)}`}>
          <input type="hidden" name="EntityID" value={String(item.id)} {...{ ':disabled': `type !== ${JSON.stringify(type)}` }} />
          Only <strong>{item.name}</strong>
        </p>
      ) : null}
      <Field label="Message" name="Message" value={v('Message')} />
      <Field label="Request path" name="RequestPath" value={v('RequestPath')} />
      <Field label="Created after" name="CreatedAfter" type="date" value={v('CreatedAfter')} />
      <Field label="Created before" name="CreatedBefore" type="date" value={v('CreatedBefore')} />
      <button type="submit">Apply</button>
    </form>
  );
}

/** The filtered entity by name: from the picker lookups, else from the entries themselves. */
async function filteredEntity(pickers: PickSource, req: FastifyRequest, input: { EntityType?: string; EntityID?: number }, logs: Record<string, unknown>[]): Promise<{ type: string; item: PickerItem | null }> {
  const type = input.EntityType ?? '';
  if (input.EntityID === undefined) return { type, item: null };
  const pickable = PICKABLE.find((p) => p.type === type);
  if (pickable) {
    const [found] = await picked(pickers, req, pickable.table, [input.EntityID]);
    if (found) return { type, item: found };
  }
  const named = logs.find((l) => typeof l.entityName === 'string' && l.entityName !== '');
  return { type, item: { id: input.EntityID, name: named ? String(named.entityName) : `${type.replace(/_/g, ' ') || 'entity'} ${input.EntityID}` } };
}

export function registerAuditPages(app: FastifyInstance, layout: Layout, audit: AuditLog, pickers: PickSource): void {
  registerPage(app, layout, {
    path: '/logs',
    needs: 'system',
    load: async (req) => {
      const input = readParams(LogListInput, makeBag(req.query));
      const { page, perPage, offset } = pageOf(input.page);
      const { rows, total } = await audit.list(input, perPage, offset);
      const logs = rows.map(logRecord);
      const entity = await filteredEntity(pickers, req, input, logs);
      return {
        pageTitle: 'Logs',
        logs,
        pagination: { page, perPage, total },
        parsedQuery: input,
        _layout: { sidebar: <LogFilters q={queryOf(req)} entity={entity} /> },
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
                  {String(l.entityType).replace(/_/g, ' ')}{' '}
                  {l.entityId === null ? null : (
                    <a href={`/logs?EntityType=${encodeURIComponent(String(l.entityType))}&EntityID=${String(l.entityId)}`} title="Only the entries of this one">
                      {String(l.entityName || `${String(l.entityType).replace(/_/g, ' ')} ${String(l.entityId)}`)}
                    </a>
                  )}
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
