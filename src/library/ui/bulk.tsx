// The list pages' bulk editor (companion §12.9): appears once something is selected, and every
// operation names what it applies to with a search picker, never a typed id. The list around
// it holds the selection in Alpine (`selectionScope`), and each form copies it as ID fields.
import type { FastifyRequest } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { FormPage, Picker } from './components.js';

export type BulkKind = 'resources' | 'notes' | 'groups';

export interface BulkOps {
  tags?: boolean;
  groups?: boolean;
  meta?: boolean;
  dimensions?: boolean;
  /** A page comparing exactly two selected entities, given their ids as `?a=…&b=…` names. */
  compare?: { path: string; first: string; second: string };
  deleteConfirm: string;
}

/** The x-data of the element holding a list and its bulk bar. */
export function selectionScope(ids: number[]): string {
  return `{ selected: [], all: ${JSON.stringify(ids)} }`;
}

/** A checkbox adding one entity to the selection. */
export function SelectBox(props: { id: number; name: string }): SafeHtml {
  return <input type="checkbox" class="select-box" aria-label={`Select ${props.name}`} value={props.id} {...{ 'x-model.number': 'selected' }} />;
}

function Selected(props: { req: FastifyRequest }): SafeHtml {
  return (
    <span>
      <FormPage req={props.req} />
      <template x-for="id in selected" {...{ ':key': 'id' }}>
        <input type="hidden" name="ID" x-bind:value="id" />
      </template>
    </span>
  );
}

export function BulkBar(props: { req: FastifyRequest; kind: BulkKind; ops: BulkOps }): SafeHtml {
  const base = `/v1/${props.kind}`;
  const { ops, req } = props;
  return (
    <div class="bulk card" data-testid="bulk-bar" role="region" aria-label="Bulk actions" x-show="selected.length > 0" x-cloak="">
      <div class="bulk-head">
        <strong x-text="selected.length + ' selected'"></strong>
        <button type="button" class="secondary" {...{ '@click': 'selected = [...all]' }}>
          Select all on this page
        </button>
        <button type="button" class="secondary" {...{ '@click': 'selected = []' }}>
          Deselect
        </button>
      </div>
      {ops.tags ? (
        <form method="post" action={`${base}/addTags`} class="bulk-op">
          <Selected req={req} />
          <Picker label="Tags" name="EditedId" source="/v1/tags/suggest" selected={[]} noEmpty />
          <button type="submit">Add tags</button>
          <button type="submit" class="secondary" formaction={`${base}/removeTags`}>
            Remove tags
          </button>
        </form>
      ) : null}
      {ops.groups ? (
        <form method="post" action={`${base}/addGroups`} class="bulk-op">
          <Selected req={req} />
          <Picker label="Groups" name="EditedId" source="/v1/groups" selected={[]} noEmpty />
          <button type="submit">Add groups</button>
        </form>
      ) : null}
      {ops.meta ? (
        <form method="post" action={`${base}/addMeta`} class="bulk-op">
          <Selected req={req} />
          <label class="field">
            <span>Metadata to merge (JSON object)</span>
            <input type="text" name="Meta" placeholder='{"key": "value"}' required />
          </label>
          <button type="submit">Add metadata</button>
        </form>
      ) : null}
      <div class="bulk-op">
        {ops.dimensions ? (
          <form method="post" action="/v1/resource/recalculateDimensions" class="inline">
            <Selected req={req} />
            <button type="submit" class="secondary">
              Update dimensions
            </button>
          </form>
        ) : null}
        {ops.compare ? (
          <a class="button secondary" x-show="selected.length === 2" {...{ ':href': `'${ops.compare.path}?${ops.compare.first}=' + selected[0] + '&${ops.compare.second}=' + selected[1]` }}>
            Compare the two
          </a>
        ) : null}
        <form method="post" action={`${base}/delete`} class="inline" {...{ '@submit': `if (!$event.submitter?.dataset.skip && !confirm(${JSON.stringify(ops.deleteConfirm)})) $event.preventDefault()` }}>
          <Selected req={req} />
          <button type="submit" class="danger" title="Shift+click skips the confirmation" {...{ '@click': 'if ($event.shiftKey) $el.dataset.skip = "1"' }}>
            Delete
          </button>
        </form>
      </div>
    </div>
  );
}
