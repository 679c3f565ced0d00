// Parts of the note pages: the list's filters, cards and bulk bar, the create/edit form, and
// the sharing panel of the note page.
import type { FastifyRequest } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { Field, FormPage, OptionSelect, Picker, PostButton, SortSelect, TextArea, firstOf, queryOf, type PickerItem } from '../ui/components.js';
import { BulkBar, SelectBox } from '../ui/bulk.js';
import type { ShareService } from '../sharing/service.js';
import { formDate } from './dates.js';
import type { NoteService } from './service.js';

type Detail = Awaited<ReturnType<NoteService['read']>>;
type Listed = Awaited<ReturnType<NoteService['present']>>[number];

const SORTS = ['name', 'created_at', 'updated_at', 'start_date', 'end_date'];

export interface FilterPicks {
  tags: PickerItem[];
  groups: PickerItem[];
  owner: PickerItem[];
}

export function NoteFilters(props: { req: FastifyRequest; types: { id: number; name: string }[]; picks: FilterPicks }): SafeHtml {
  const q = queryOf(props.req);
  const v = (k: string) => firstOf(q[k]);
  const shared = v('Shared');
  return (
    <form method="get" action="/notes" class="filters">
      <h2>Filters</h2>
      <Field label="Name" name="Name" value={v('Name')} />
      <Field label="Text" name="Description" value={v('Description')} />
      <OptionSelect label="Note type" name="NoteTypeId" options={props.types} selected={v('NoteTypeId')} empty="any" />
      <Picker label="Tags (all of them)" name="Tags" source="/v1/tags/suggest" selected={props.picks.tags} />
      <Picker label="Groups (each of them)" name="Groups" source="/v1/groups" selected={props.picks.groups} />
      <Picker label="Owner" name="OwnerId" source="/v1/groups" multiple={false} selected={props.picks.owner} />
      <Field label="Starts after" name="StartDateAfter" type="date" value={v('StartDateAfter')} />
      <Field label="Starts before" name="StartDateBefore" type="date" value={v('StartDateBefore')} />
      <Field label="Ends after" name="EndDateAfter" type="date" value={v('EndDateAfter')} />
      <Field label="Ends before" name="EndDateBefore" type="date" value={v('EndDateBefore')} />
      <Field label="Created after" name="CreatedAfter" type="date" value={v('CreatedAfter')} />
      <Field label="Created before" name="CreatedBefore" type="date" value={v('CreatedBefore')} />
      <label class="field">
        <span>Shared</span>
        <select name="Shared">
          <option value="">all notes</option>
          <option value="true" selected={shared === 'true' || shared === '1'}>
            only shared
          </option>
          <option value="false" selected={shared === 'false' || shared === '0'}>
            only unshared
          </option>
        </select>
      </label>
      <Field label="Meta query (key:value)" name="MetaQuery" value={v('MetaQuery')} />
      <SortSelect req={props.req} columns={SORTS} />
      <button type="submit">Apply</button>
    </form>
  );
}

export function NoteCard(props: { n: Listed; avatar?: SafeHtml }): SafeHtml {
  const n = props.n;
  const preview = n.Description.length > 240 ? `${n.Description.slice(0, 240)}…` : n.Description;
  return (
    <li class="card note-card">
      <label class="select">
        <SelectBox id={n.ID} name={n.Name} />
      </label>
      {props.avatar ? <span class="avatar">{props.avatar}</span> : null}
      <a href={`/note?id=${n.ID}`} class="note-title">
        {n.Name}
      </a>
      {n.NoteType ? <small> · {String(n.NoteType.Name)}</small> : null}
      {n.hasShare ? <small class="badge"> shared</small> : null}
      {n.StartDate ? <small class="dates"> {n.StartDate.slice(0, 16).replace('T', ' ')}{n.EndDate ? ` → ${n.EndDate.slice(0, 16).replace('T', ' ')}` : ''}</small> : null}
      {preview ? <p class="preview">{preview}</p> : null}
      <p class="tags">{n.Tags.map((t) => <span class="tag">{t.Name}</span>)}</p>
    </li>
  );
}

export function NoteBulkBar(props: { req: FastifyRequest }): SafeHtml {
  return <BulkBar req={props.req} kind="notes" ops={{ tags: true, groups: true, meta: true, deleteConfirm: 'Delete the selected notes?' }} />;
}

export interface NoteFormPicks {
  tags: PickerItem[];
  groups: PickerItem[];
  resources: PickerItem[];
  owner: PickerItem[];
}

export function NoteForm(props: { req: FastifyRequest; note?: Detail; types: { id: number; name: string }[]; picks: NoteFormPicks }): SafeHtml {
  const q = queryOf(props.req);
  const n = props.note;
  const value = (k: string, fallback: string | number | null | undefined) => (q[k] !== undefined ? firstOf(q[k]) : String(fallback ?? ''));
  const typeId = value('NoteTypeId', n?.NoteTypeId);
  return (
    <form method="post" action="/v1/note" class="card form" data-testid="note-form">
      <FormPage req={props.req} />
      {n ? <input type="hidden" name="ID" value={n.ID} /> : null}
      <Field label="Title" name="Name" required value={value('Name', n?.Name)} />
      <TextArea label="Text" name="Description" rows={8} value={value('Description', n?.Description)} mentions="resource,group,tag" hint="Markdown; type @ to mention a resource, group or tag. Mirrors the first text block once the note has blocks." />
      <div class="row">
        <Field label="Start" name="StartDate" type="datetime-local" value={value('StartDate', formDate(n?.StartDate ?? null))} />
        <Field label="End" name="EndDate" type="datetime-local" value={value('EndDate', formDate(n?.EndDate ?? null))} />
      </div>
      <OptionSelect label="Note type" name="NoteTypeId" options={[{ id: 0, name: 'none' }, ...props.types]} selected={typeId} />
      <Picker label="Owner group" name="OwnerId" source="/v1/groups" multiple={false} empty="0" selected={props.picks.owner} />
      <Picker label="Related groups" name="Groups" source="/v1/groups" selected={props.picks.groups} />
      <Picker label="Tags" name="Tags" source="/v1/tags/suggest" selected={props.picks.tags} />
      <Picker label="Resources" name="Resources" source="/v1/resources" selected={props.picks.resources} />
      <TextArea label="Meta (JSON object)" name="Meta" code value={value('Meta', n ? JSON.stringify(n.Meta, null, 2) : '{}')} />
      <button type="submit">{n ? 'Save' : 'Create note'}</button>
    </form>
  );
}

export function Sharing(props: { note: Detail; sharing: ShareService }): SafeHtml {
  const { note, sharing } = props;
  const base = sharing.publicBase;
  if (note.shareToken) {
    const path = `/s/${note.shareToken}`;
    const link = base ? `${base}${path}` : path;
    return (
      <section class="sharing" data-testid="sharing">
        <h2>Sharing</h2>
        <p>
          Shared since {String(note.shareCreatedAt ?? '').slice(0, 10)}: <a href={base ? link : undefined} data-share-url={link} class="share-link">{link}</a>
        </p>
        {!base ? <p class="hint">This is the path on the share server; set -share-public-url to show full links.</p> : null}
        <button type="button" class="copy-share" data-copy={link}>
          Copy link
        </button>{' '}
        <button type="button" class="danger unshare" data-note-id={note.ID}>
          Unshare
        </button>
      </section>
    );
  }
  return (
    <section class="sharing" data-testid="sharing">
      <h2>Sharing</h2>
      {sharing.running ? (
        <PostButton action={`/v1/note/share?noteId=${note.ID}`} label="Share" />
      ) : (
        <p class="hint">Sharing is off: start the service with -share-port to share notes.</p>
      )}
    </section>
  );
}
