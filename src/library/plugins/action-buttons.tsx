// Plugin action buttons on pages (library-plugins.md §17.1 placement, §17.3 filtering, §26):
// `detail` actions on resource, note and group pages (filtered against the shown entity),
// `card` actions on every list card and every row of the resource table (unfiltered, as §17.3
// says of list pages) and `bulk` actions in the selection bar of the resource and group lists. The same principal rules as the action listing apply (guests see none, a
// group-limited viewer only the plugins opened to it). Buttons carry what public/plugin-actions.js
// needs to run the action; an action with parameters opens a dialog holding a form for them
// (entity_ref parameters use the search picker, so nobody types an id).
import { h, type SafeHtml } from '../../core/html/jsx.js';
import type { Principal } from '../auth/principal.js';
import type { PluginActionTarget } from '../ui/layout.js';
import { Picker } from '../ui/components.js';
import { filtersMatch, runnableActions, type ActionDef, type ActionParam } from './actions.js';
import type { PluginCatalogue } from './catalogue.js';
import type { LoadedPlugin } from './manager.js';

const PICKER_SOURCES = { resource: '/v1/resources', note: '/v1/notes', group: '/v1/groups' } as const;

/** The actions this viewer may run from one placement on one kind of entity. */
export function placedActions(catalogue: PluginCatalogue<LoadedPlugin>, principal: Principal | undefined, target: PluginActionTarget, placement: 'detail' | 'card' | 'bulk'): ActionDef[] {
  if (!catalogue.available || !principal) return [];
  // Detail pages filter against the shown entity; list pages offer card and bulk actions unfiltered (§17.3).
  const values = placement === 'detail' ? { contentType: target.contentType, categoryId: target.categoryId, noteTypeId: target.noteTypeId } : null;
  return runnableActions(catalogue, principal, target.entity).filter((a) => a.placement.includes(placement) && (values === null || filtersMatch(a.filters, values)));
}

/** Parameters the person fills in (hidden ones travel with the form, info ones only explain). */
const asksSomething = (a: ActionDef) => a.params.some((p) => p.type !== 'hidden');
const dialogId = (a: ActionDef, placement: string) => `plugin-action-${placement}-${a.pluginName}-${a.id}`.replace(/[^A-Za-z0-9_-]/g, '_');

/** Which entities an entity_ref parameter starts with (§17.2): the trigger unless it says otherwise. */
function refDefault(p: ActionParam): string {
  return typeof p.default === 'string' ? p.default : 'trigger';
}

function ParamField(props: { p: ActionParam; dialog: string }): SafeHtml {
  const { p } = props;
  const id = `${props.dialog}-${p.name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const wrap = (inner: SafeHtml) => (
    <div
      class="plugin-param"
      data-param={p.name}
      data-param-type={p.type}
      data-show-when={p.show_when ? JSON.stringify(p.show_when) : undefined}
      data-multi={p.multi ? 'true' : undefined}
      data-ref-entity={p.type === 'entity_ref' ? p.entity : undefined}
      data-ref-default={p.type === 'entity_ref' ? refDefault(p) : undefined}
    >
      {inner}
    </div>
  );
  const dflt = p.default === undefined || p.default === null || typeof p.default === 'object' ? '' : String(p.default);
  const help = p.description && p.type !== 'info' ? <small class="hint">{p.description}</small> : null;
  switch (p.type) {
    case 'info':
      return wrap(<p class="hint">{p.description ?? p.label}</p>);
    case 'hidden':
      return wrap(<input type="hidden" name={p.name} value={dflt} />);
    case 'boolean':
      return wrap(
        <label class="check">
          <input type="checkbox" name={p.name} checked={p.default === true} /> {p.label}
          {help}
        </label>,
      );
    case 'select':
      return wrap(
        <label class="field" for={id}>
          <span>{p.label}</span>
          <select id={id} name={p.name} required={p.required}>
            {p.required ? null : <option value="">—</option>}
            {(p.options ?? []).map((o) => (
              <option value={o} selected={o === dflt}>
                {o}
              </option>
            ))}
          </select>
          {help}
        </label>,
      );
    case 'textarea':
      return wrap(
        <label class="field" for={id}>
          <span>{p.label}</span>
          <textarea id={id} name={p.name} rows={3} required={p.required}>
            {dflt}
          </textarea>
          {help}
        </label>,
      );
    case 'number':
      return wrap(
        <label class="field" for={id}>
          <span>{p.label}</span>
          <input id={id} type="number" name={p.name} value={dflt} min={p.min === undefined ? undefined : String(p.min)} max={p.max === undefined ? undefined : String(p.max)} step={p.step === undefined ? 'any' : String(p.step)} required={p.required} />
          {help}
        </label>,
      );
    case 'entity_ref':
      return wrap(<Picker label={p.label} name={p.name} source={PICKER_SOURCES[p.entity ?? 'resource']} selected={[]} multiple={p.multi === true} noEmpty hint={p.description} />);
    default:
      return wrap(
        <label class="field" for={id}>
          <span>{p.label}</span>
          <input id={id} type="text" name={p.name} value={dflt} required={p.required} />
          {help}
        </label>,
      );
  }
}

function ActionDialog(props: { a: ActionDef; id: string }): SafeHtml {
  const { a } = props;
  return (
    <dialog class="plugin-action-dialog card" id={props.id} aria-labelledby={`${props.id}-title`}>
      <form method="dialog" class="form" data-plugin-action-form="">
        <h2 id={`${props.id}-title`}>
          {a.icon ? `${a.icon} ` : ''}
          {a.label}
        </h2>
        {a.description ? <p>{a.description}</p> : null}
        {a.params.map((p) => (
          <ParamField p={p} dialog={props.id} />
        ))}
        <p class="plugin-action-errors error" role="alert" hidden></p>
        <div class="actions">
          <button type="submit" value="run">
            Run
          </button>
          <button type="button" class="secondary" data-plugin-action-cancel="">
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

function ActionButton(props: { a: ActionDef; placement: string; ids?: number[] }): SafeHtml {
  const { a } = props;
  const dialog = asksSomething(a) ? dialogId(a, props.placement) : undefined;
  return (
    <button
      type="button"
      class="secondary plugin-action"
      data-plugin-action={a.id}
      data-plugin={a.pluginName}
      data-entity={a.entity}
      data-label={a.label}
      data-async={a.async ? 'true' : 'false'}
      data-confirm={a.confirm}
      data-bulk-max={a.bulkMax > 0 ? String(a.bulkMax) : undefined}
      data-dialog={dialog}
      data-entity-ids={props.ids ? props.ids.join(',') : undefined}
      title={a.description}
    >
      {a.icon ? `${a.icon} ` : ''}
      {a.label}
    </button>
  );
}

const Status = () => <p class="plugin-action-status" role="status" aria-live="polite" data-testid="plugin-action-status"></p>;

/** The detail page's buttons, placed next to the page's own actions. */
export function DetailActions(props: { actions: ActionDef[]; id: number }): SafeHtml | null {
  if (props.actions.length === 0) return null;
  return (
    <div class="plugin-actions" role="group" aria-label="Plugin actions" data-testid="plugin-actions">
      {props.actions.map((a) => (
        <ActionButton a={a} placement="detail" ids={[props.id]} />
      ))}
      {props.actions.filter(asksSomething).map((a) => (
        <ActionDialog a={a} id={dialogId(a, 'detail')} />
      ))}
      <Status />
      <script defer src="/public/plugin-actions.js"></script>
    </div>
  );
}

/**
 * A list page's card and bulk actions. Card buttons are a template the script copies into every
 * card or table row that has a selection box; bulk buttons act on the checked boxes and show only while
 * something is selected.
 */
export function ListActions(props: { card: ActionDef[]; bulk: ActionDef[] }): SafeHtml | null {
  const { card, bulk } = props;
  if (card.length === 0 && bulk.length === 0) return null;
  return (
    <div class="plugin-list-actions" data-testid="plugin-list-actions">
      {card.length ? (
        <template id="plugin-card-actions">
          <details class="menu plugin-card-menu">
            <summary>Actions</summary>
            <div class="menu-items" role="group" aria-label="Plugin actions">
              {card.map((a) => (
                <ActionButton a={a} placement="card" />
              ))}
            </div>
          </details>
        </template>
      ) : null}
      {bulk.length ? (
        <div class="plugin-actions plugin-bulk-actions card" role="region" aria-label="Plugin actions on the selection" data-testid="plugin-bulk-actions" hidden>
          <strong>Plugin actions on the selection</strong>{' '}
          {bulk.map((a) => (
            <ActionButton a={a} placement="bulk" />
          ))}
        </div>
      ) : null}
      {card.filter(asksSomething).map((a) => (
        <ActionDialog a={a} id={dialogId(a, 'card')} />
      ))}
      {bulk.filter(asksSomething).map((a) => (
        <ActionDialog a={a} id={dialogId(a, 'bulk')} />
      ))}
      <Status />
      <script defer src="/public/plugin-actions.js"></script>
    </div>
  );
}
