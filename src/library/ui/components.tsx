// Building blocks shared by every page: list filters, pagination, form fields, write buttons.
import type { FastifyRequest } from 'fastify';
import { h, type Child, type SafeHtml } from '../../core/html/jsx.js';
import { When } from './dates.js';

/** The current request's query as a plain string map (first value of each key). */
export function queryOf(req: FastifyRequest): Record<string, string | string[]> {
  return (req.query ?? {}) as Record<string, string | string[]>;
}

export function firstOf(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

export function listOf(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Hidden field telling the error handler which page to return to on a validation error. */
export function FormPage(props: { req: FastifyRequest }): SafeHtml {
  return <input type="hidden" name="_form" value={props.req.url} />;
}

export function Field(props: { label: string; name: string; value?: string | number | null; type?: string; required?: boolean; placeholder?: string; hint?: string }): SafeHtml {
  return (
    <label class="field">
      <span>{props.label}</span>
      <input type={props.type ?? 'text'} name={props.name} value={props.value ?? ''} required={props.required} placeholder={props.placeholder} />
      {props.hint ? <small>{props.hint}</small> : null}
    </label>
  );
}

/** `mentions`: the entity types an @ autocomplete offers here (public/mentions.js), e.g. "note,group,tag". */
export function TextArea(props: { label: string; name: string; value?: string | null; rows?: number; code?: boolean; hint?: string; mentions?: string }): SafeHtml {
  return (
    <label class="field">
      <span>{props.label}</span>
      <textarea name={props.name} rows={props.rows ?? 4} class={props.code ? 'code' : undefined} data-mentions={props.mentions}>
        {props.value ?? ''}
      </textarea>
      {props.hint ? <small>{props.hint}</small> : null}
    </label>
  );
}

export function Checkbox(props: { label: string; name: string; checked?: boolean }): SafeHtml {
  return (
    <label class="field checkbox">
      <input type="hidden" name={props.name} value="false" />
      <input type="checkbox" name={props.name} value="true" checked={props.checked} />
      <span>{props.label}</span>
    </label>
  );
}

/** A one-button form posting to a /v1 write endpoint (delete and similar). */
export function PostButton(props: { action: string; label: string; confirm?: string; danger?: boolean; fields?: Record<string, string | number> }): SafeHtml {
  return (
    <form method="post" action={props.action} class="inline" x-data="" {...(props.confirm ? { '@submit': `if (!confirm(${JSON.stringify(props.confirm)})) $event.preventDefault()` } : {})}>
      {Object.entries(props.fields ?? {}).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <button type="submit" class={props.danger ? 'danger' : undefined}>
        {props.label}
      </button>
    </form>
  );
}

/** The list filters' sort choice: each column ascending or descending, newest first by default. */
export function SortSelect(props: { req: FastifyRequest; columns: string[] }): SafeHtml {
  const sorts = listOf(queryOf(props.req).SortBy);
  return (
    <label class="field">
      <span>Sort by</span>
      <select name="SortBy">
        <option value="">Newest first</option>
        {props.columns.flatMap((col) =>
          ['asc', 'desc'].map((dir) => (
            <option value={`${col} ${dir}`} selected={sorts.includes(`${col} ${dir}`)}>
              {col.replace(/_/g, ' ')} {dir === 'asc' ? '↑' : '↓'}
            </option>
          )),
        )}
      </select>
    </label>
  );
}

/** A select of named rows (categories, types) with an optional empty choice. */
export function OptionSelect(props: { label: string; name: string; options: { id: number; name: string }[]; selected: string | number | null | undefined; empty?: string }): SafeHtml {
  const selected = props.selected === null || props.selected === undefined ? '' : String(props.selected);
  return (
    <label class="field">
      <span>{props.label}</span>
      <select name={props.name}>
        {props.empty !== undefined ? <option value="">{props.empty}</option> : null}
        {props.options.map((o) => (
          <option value={o.id} selected={String(o.id) === selected}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ListFilters(props: { req: FastifyRequest; action: string; extra?: Child; sortOptions: string[] }): SafeHtml {
  const q = queryOf(props.req);
  return (
    <form method="get" action={props.action} class="filters">
      <h2>Filters</h2>
      <Field label="Name" name="Name" value={firstOf(q.Name)} />
      <Field label="Description" name="Description" value={firstOf(q.Description)} />
      {props.extra}
      <Field label="Created after" name="CreatedAfter" type="date" value={firstOf(q.CreatedAfter)} />
      <Field label="Created before" name="CreatedBefore" type="date" value={firstOf(q.CreatedBefore)} />
      <SortSelect req={props.req} columns={props.sortOptions} />
      <button type="submit">Apply</button>
    </form>
  );
}

export function Pagination(props: { req: FastifyRequest; page: number; perPage: number; count: number; total?: number }): SafeHtml {
  const url = new URL(props.req.url, 'http://local');
  const link = (p: number) => {
    url.searchParams.set('page', String(p));
    return url.pathname + url.search;
  };
  const hasNext = props.total !== undefined ? props.page * props.perPage < props.total : props.count === props.perPage;
  return (
    <nav class="pagination" aria-label="Pagination">
      {props.page > 1 ? (
        <a href={link(props.page - 1)} rel="prev">
          ← Previous
        </a>
      ) : (
        <span />
      )}
      <span>
        Page {props.page}
        {props.total !== undefined ? ` of ${Math.max(1, Math.ceil(props.total / props.perPage))}` : ''}
      </span>
      {hasNext ? (
        <a href={link(props.page + 1)} rel="next">
          Next →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

export function Timestamps(props: { created: string; updated: string }): SafeHtml {
  return (
    <dl class="timestamps">
      <dt>Created</dt>
      <dd>
        <When at={props.created} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <When at={props.updated} />
      </dd>
    </dl>
  );
}

export interface PickerItem {
  id: number;
  name: string;
}

/**
 * Search-and-pick field for entity ids (tags, groups…), backed by a list endpoint that takes
 * Name. `multiple: false` holds one id; an empty pick sends an explicit empty value (`empty`).
 * The text box is an ARIA combobox (public/picker.js holds the keyboard behaviour).
 */
export function Picker(props: { label: string; name: string; source: string; selected: PickerItem[]; multiple?: boolean; empty?: string; hint?: string; form?: string; /** Bulk operations send only the picked ids. */ noEmpty?: boolean }): SafeHtml {
  const config = { name: props.name, source: props.source, multiple: props.multiple !== false, selected: props.selected };
  const form = props.form;
  return (
    <div class="field picker" x-data={`picker(${JSON.stringify(config)})`}>
      <label {...{ ':for': "uid + '-input'" }}>{props.label}</label>
      {props.noEmpty ? null : config.multiple ? (
        <input type="hidden" name={props.name} value={props.empty ?? ''} form={form} />
      ) : (
        // A single pick sends one value: the empty one only while nothing is picked.
        <template x-if="selected.length === 0">
          <input type="hidden" name={props.name} value={props.empty ?? ''} form={form} />
        </template>
      )}
      <div class="chips">
        <template x-for="item in selected" {...{ ':key': 'item.id' }}>
          <span class="tag">
            <span x-text="item.name"></span>
            <button type="button" class="chip-remove" {...{ ':aria-label': "'Remove ' + item.name", '@click': 'remove(item)' }}>
              ×
            </button>
            <input type="hidden" form={form} {...{ ':name': 'name', ':value': 'item.id' }} />
          </span>
        </template>
      </div>
      <input
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded="false"
        placeholder="Type to search…"
        x-model="query"
        {...{
          ':id': "uid + '-input'",
          ':aria-controls': "uid + '-list'",
          ':aria-expanded': 'open ? "true" : "false"',
          ':aria-activedescendant': 'active >= 0 ? optionId(active) : null',
          '@input.debounce.200ms': 'search()',
          '@keydown': 'key($event)',
          '@blur': 'setTimeout(() => close(), 150)',
        }}
      />
      <ul class="picker-results" role="listbox" x-show="open && results.length > 0" x-cloak="" {...{ ':id': "uid + '-list'", ':aria-label': `${JSON.stringify(props.label)} + ' matches'` }}>
        <template x-for="(r, i) in results" {...{ ':key': 'r.id' }}>
          <li role="option" x-text="r.name" {...{ ':id': 'optionId(i)', ':aria-selected': 'i === active ? "true" : "false"', ':class': '{ active: i === active }', '@mousedown.prevent': 'add(r)' }}></li>
        </template>
      </ul>
      <span class="visually-hidden" role="status" x-text="status"></span>
      {props.hint ? <small>{props.hint}</small> : null}
    </div>
  );
}

/**
 * What an empty list says: with filters, that nothing matches them; without, what the thing is
 * and how to start.
 */
export function EmptyState(props: { req: FastifyRequest; filtered: string; intro: string; start?: { href: string; label: string } }): SafeHtml {
  const q = queryOf(props.req);
  const filtered = Object.keys(q).some((k) => k !== 'page' && firstOf(q[k]) !== '');
  return (
    <div class="empty-state">
      {filtered ? (
        <p class="empty">{props.filtered}</p>
      ) : (
        <p class="empty">
          {props.intro}
          {props.start ? (
            <span>
              {' '}
              <a href={props.start.href}>{props.start.label}</a>
            </span>
          ) : null}
        </p>
      )}
    </div>
  );
}
