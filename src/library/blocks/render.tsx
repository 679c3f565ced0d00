// Blocks in view mode, for the note page and the public share page. The markup carries the data
// the small scripts need (public/note-blocks.js: todos, table sorting, calendars); on share pages
// only state is exposed, never a block's full content (a table's query id and parameters stay
// private).
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import { Markdown } from '../ui/markdown.js';
import type { BlockRecord, JsonObject } from './records.js';
import type { BlockViewData, TableView } from './view.js';

export interface RenderContext {
  mode: 'app' | 'share';
  /** The share token (share mode). */
  token?: string;
  data: BlockViewData;
}

function stateEndpoint(b: BlockRecord, ctx: RenderContext): { url: string; method: string; wrap: boolean } | null {
  if (ctx.mode === 'app') return { url: `/v1/note/block/state?id=${b.id}&noteId=${b.noteId}`, method: 'PATCH', wrap: true };
  // The share server accepts state changes of todos blocks only.
  return b.type === 'todos' ? { url: `/s/${ctx.token}/block/${b.id}/state`, method: 'POST', wrap: false } : null;
}

function eventsUrl(b: BlockRecord, ctx: RenderContext): string {
  return ctx.mode === 'app' ? `/v1/note/block/calendar/events?blockId=${b.id}` : `/s/${ctx.token}/block/${b.id}/calendar/events`;
}

function compareCells(a: unknown, b: unknown): number {
  if (a === null || a === undefined || a === '') return b === null || b === undefined || b === '' ? 0 : 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** Rows in the order the block's state asks for (missing values last). */
export function sortedRows(table: TableView, state: JsonObject): Record<string, unknown>[] {
  const col = typeof state.sortColumn === 'string' ? state.sortColumn : null;
  if (!col || !table.columns.some((c) => c.id === col)) return table.rows;
  const dir = state.sortDirection === 'desc' ? -1 : 1;
  return [...table.rows].sort((x, y) => {
    const c = compareCells(x[col], y[col]);
    return x[col] === null || x[col] === undefined || x[col] === '' || y[col] === null || y[col] === undefined || y[col] === '' ? c : c * dir;
  });
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function TextBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const text = String(props.b.content.text ?? '');
  return text.trim() === '' ? <p class="empty">Empty text.</p> : <Markdown class="block-text" text={text} mode={props.ctx.mode} />;
}

function HeadingBlock(props: { b: BlockRecord }): SafeHtml {
  const level = Math.min(6, Math.max(1, Number(props.b.content.level) || 2));
  return h(`h${level}`, { class: 'block-heading' }, String(props.b.content.text ?? ''));
}

function GalleryBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const ids = (props.b.content.resourceIds as number[] | undefined) ?? [];
  const items = ids.map((id) => props.ctx.data.resources.get(id)).filter((r) => r !== undefined);
  const layout = props.b.state.layout === 'list' ? 'list' : 'grid';
  if (items.length === 0) return <p class="empty">No resources.</p>;
  return (
    <ul class={`gallery gallery-${layout}`}>
      {items.map((r) => {
        const image = r.contentType.startsWith('image/');
        if (props.ctx.mode === 'share') {
          const src = `/s/${props.ctx.token}/resource/${r.hash}`;
          return (
            <li>
              <a href={src}>
                {image ? <img src={src} alt={r.name} loading="lazy" /> : null}
                <span>{r.name}</span>
              </a>
            </li>
          );
        }
        return (
          <li>
            <a href={`/resource?id=${r.id}`} data-lightbox-id={r.id} data-lightbox-name={r.name}>
              {image ? <img src={`/v1/resource/preview?ID=${r.id}&Width=320`} alt={r.name} loading="lazy" /> : null}
              <span>{r.name}</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function ReferencesBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const ids = (props.b.content.groupIds as number[] | undefined) ?? [];
  const groups = ids.map((id) => props.ctx.data.groups.get(id)).filter((g) => g !== undefined);
  if (groups.length === 0) return <p class="empty">No groups referenced.</p>;
  return (
    <ul class="references">
      {groups.map((g) => (
        <li class="reference">
          {props.ctx.mode === 'app' ? <a href={`/group?id=${g.id}`}>{g.name}</a> : <strong>{g.name}</strong>}
          {g.category ? <small> · {g.category}</small> : null}
          {g.description ? <p>{g.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function TodosBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const items = (props.b.content.items as { id: string; label: string }[] | undefined) ?? [];
  const checked = new Set((props.b.state.checked as string[] | undefined) ?? []);
  const editable = stateEndpoint(props.b, props.ctx) !== null;
  if (items.length === 0) return <p class="empty">No items.</p>;
  return (
    <ul class="todos">
      {items.map((item) => (
        <li class={checked.has(item.id) ? 'done' : undefined}>
          <label>
            <input type="checkbox" data-item-id={item.id} checked={checked.has(item.id)} disabled={!editable} /> <span>{item.label}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}

function TableBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const table = props.ctx.data.tables.get(props.b.id) ?? { columns: [], rows: [] };
  if (table.error) return <p class="error-banner">The table's query failed: {table.error}</p>;
  if (table.columns.length === 0) return <p class="empty">Empty table.</p>;
  const sortColumn = typeof props.b.state.sortColumn === 'string' ? props.b.state.sortColumn : '';
  const dir = props.b.state.sortDirection === 'desc' ? 'desc' : 'asc';
  return (
    <div class="table-wrap">
      <table class="list block-table">
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th data-column={c.id} aria-sort={c.id === sortColumn ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                <button type="button" class="sort">
                  {c.label}
                  {c.id === sortColumn ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sortedRows(table, props.b.state).map((r) => (
            <tr>
              {table.columns.map((c) => (
                <td data-value={cellText(r[c.id])}>{cellText(r[c.id])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.cachedAt ? <small class="muted">Query results as of {table.cachedAt.replace('T', ' ').slice(0, 19)} UTC</small> : null}
    </div>
  );
}

function CalendarBlock(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const calendars = (props.b.content.calendars as { id: string; name: string }[] | undefined) ?? [];
  return (
    <div class="calendar" data-events-url={eventsUrl(props.b, props.ctx)}>
      <noscript>
        <p>Calendars: {calendars.map((c) => c.name).join(', ') || 'none'}</p>
      </noscript>
    </div>
  );
}

function inner(b: BlockRecord, ctx: RenderContext): SafeHtml {
  switch (b.type) {
    case 'text':
      return <TextBlock b={b} ctx={ctx} />;
    case 'heading':
      return <HeadingBlock b={b} />;
    case 'divider':
      return <hr class="block-divider" />;
    case 'gallery':
      return <GalleryBlock b={b} ctx={ctx} />;
    case 'references':
      return <ReferencesBlock b={b} ctx={ctx} />;
    case 'todos':
      return <TodosBlock b={b} ctx={ctx} />;
    case 'table':
      return <TableBlock b={b} ctx={ctx} />;
    case 'calendar':
      return <CalendarBlock b={b} ctx={ctx} />;
    default: {
      const html = ctx.data.plugins.get(b.id);
      if (html !== undefined) return <div class="plugin-block">{raw(html)}</div>;
      const plugin = /^plugin:([^:]+):/.exec(b.type)?.[1];
      if (plugin) return <p class="empty plugin-missing">This block needs the {plugin} plugin, which is not enabled.</p>;
      return <p class="empty">This block type ({b.type}) cannot be shown.</p>;
    }
  }
}

export function BlockView(props: { b: BlockRecord; ctx: RenderContext }): SafeHtml {
  const { b, ctx } = props;
  const endpoint = stateEndpoint(b, ctx);
  return (
    <section
      class={`block block-${b.type}`}
      id={`block-${b.id}`}
      data-block-id={b.id}
      data-block-type={b.type}
      data-position={b.position}
      data-state={JSON.stringify(b.state)}
      data-state-url={endpoint?.url}
      data-state-method={endpoint?.method}
      data-state-wrap={endpoint ? String(endpoint.wrap) : undefined}
      data-block={ctx.mode === 'app' ? JSON.stringify(b) : undefined}
    >
      {inner(b, ctx)}
    </section>
  );
}

export function BlockList(props: { blocks: BlockRecord[]; ctx: RenderContext }): SafeHtml {
  return (
    <div class="blocks" data-testid="blocks">
      {props.blocks.map((b) => (
        <BlockView b={b} ctx={props.ctx} />
      ))}
    </div>
  );
}
