// The import page (companion §6.4, /admin/import): upload an archive, watch it being parsed,
// review the plan (summary, the group tree with exclusions, vocabulary mappings with
// map/create choices, series, shell groups, dangling references, missing bytes, options),
// apply it and read the result. `?id=` reopens a staged import.
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import { GROUP_IMPORT_REFUSED, mayImportGroups } from '../auth/principal.js';
import { forbidden } from '../../core/http/errors.js';
import { jobVisibility } from '../downloads/service.js';
import { formatBytes } from '../admin/stats.js';
import { Picker, queryOf } from '../ui/components.js';
import { When } from '../ui/dates.js';
import { ImportStore } from './staging.js';

const on = (event: string, handler: string) => ({ [`@${event}`]: handler });
const bind = (attr: string, expr: string) => ({ [`:${attr}`]: expr });

function Upload(props: { limit: number }): SafeHtml {
  return (
    <section class="card form" x-show="!importId" data-testid="upload">
      <h2>Upload an export archive</h2>
      <label class="field">
        <span>Archive (.tar or .tar.gz)</span>
        <input type="file" name="file" accept=".tar,.gz,.tgz,application/x-tar,application/gzip" x-ref="file" />
        <small>At most {formatBytes(props.limit)}.</small>
      </label>
      <button type="button" {...on('click', 'upload()')} {...bind('disabled', 'busy')}>
        Upload and read
      </button>
      <progress max="100" x-show="uploading !== null" {...bind('value', 'uploading')}></progress>
    </section>
  );
}

function JobState(props: { title: string; watch: string }): SafeHtml {
  return (
    <section class="card" x-show={props.watch} x-cloak>
      <h2>{props.title}</h2>
      <p>
        <span x-text={`${props.watch}?.status`}></span> <small class="empty" x-text={`${props.watch}?.phase !== ${props.watch}?.status ? ${props.watch}?.phase ?? '' : ''`}></small>{' '}
        <small class="empty" x-text={`${props.watch}?.phaseTotal ? ${props.watch}.phaseCount + ' / ' + ${props.watch}.phaseTotal : ''`}></small>
      </p>
      <progress max="100" {...bind('value', `${props.watch} && ${props.watch}.progressPercent >= 0 ? ${props.watch}.progressPercent : null`)}></progress>
      <p class="error-banner" x-show={`${props.watch}?.error`} x-text={`${props.watch}?.error`}></p>
    </section>
  );
}

function Mappings(): SafeHtml {
  return (
    <section class="card" data-testid="mappings">
      <h2>Vocabulary</h2>
      <p class="empty">Each category, type, tag and relation type of the archive is mapped onto one here, created, or left out.</p>
      <template x-for="kind in Object.keys(plan.mappings).filter((k) => plan.mappings[k].length)" {...bind('key', 'kind')}>
        <div>
          <h3 x-text="kind.replace(/_/g, ' ')"></h3>
          <table class="list">
            <thead>
              <tr>
                <th>In the archive</th>
                <th>Import</th>
                <th>Action</th>
                <th>Here</th>
              </tr>
            </thead>
            <tbody>
              <template x-for="m in plan.mappings[kind]" {...bind('key', 'm.decision_key')}>
                <tr {...bind('data-key', 'm.decision_key')}>
                  <td>
                    <span x-text="sourceName(m)"></span> <small class="error-banner" x-show="m.ambiguous && choices[m.decision_key].action === 'map' && !choices[m.decision_key].destination">choose one</small>
                    <small class="empty" x-show="m.guid_conflict" x-text="'same GUID as ' + m.guid_match_name"></small>
                  </td>
                  <td>
                    <input type="checkbox" x-model="choices[m.decision_key].include" aria-label="import" />
                  </td>
                  <td>
                    <select x-model="choices[m.decision_key].action" {...bind('disabled', '!choices[m.decision_key].include')}>
                      <option value="map">map</option>
                      <option value="create">create</option>
                    </select>
                  </td>
                  <td>
                    <template x-if="choices[m.decision_key].action === 'map'">
                      <span>
                        <select x-model="choices[m.decision_key].destination" x-show="m.alternatives.length || m.destination_id">
                          <option value="">—</option>
                          <template x-for="a in destinations(m)" {...bind('key', 'a.id')}>
                            <option {...bind('value', 'a.id')} x-text="a.name + ' (#' + a.id + ')'"></option>
                          </template>
                        </select>
                        <input type="number" min="1" placeholder="id" x-model="choices[m.decision_key].destination" aria-label="destination id" />
                      </span>
                    </template>
                    <template x-if="choices[m.decision_key].action === 'create'">
                      <input type="text" placeholder="name (optional)" x-model="choices[m.decision_key].rename" aria-label="new name" />
                    </template>
                  </td>
                </tr>
              </template>
            </tbody>
          </table>
        </div>
      </template>
    </section>
  );
}

function Review(): SafeHtml {
  return (
    <form class="form" x-show="plan && !result" x-cloak x-ref="review" {...on('submit.prevent', 'apply()')} data-testid="review">
      <template x-if="plan">
        <div>
          <section class="card" data-testid="summary">
            <h2>Archive</h2>
            <p>
              <span x-text="plan.archive.file_name"></span> <small class="empty" x-text="'made by ' + plan.archive.created_by + ' on ' + plan.archive.created_at.slice(0, 16).replace('T', ' ')"></small>
            </p>
            <table class="list">
              <tbody>
                <template x-for="(n, key) in plan.counts" {...bind('key', 'key')}>
                  <tr>
                    <th x-text="key.replace('_', ' ')"></th>
                    <td x-text="n"></td>
                  </tr>
                </template>
                <tr>
                  <th>already here by GUID</th>
                  <td x-text="plan.conflicts.guid_matches"></td>
                </tr>
                <tr>
                  <th>files already here</th>
                  <td x-text="plan.conflicts.resource_hash_matches"></td>
                </tr>
              </tbody>
            </table>
            <ul x-show="plan.warnings.length">
              <template x-for="w in plan.warnings">
                <li x-text="w"></li>
              </template>
            </ul>
          </section>
          <section class="card" data-testid="items">
            <h2>Groups</h2>
            <ul class="tree">
              <template x-for="row in rows()" {...bind('key', 'row.item.export_id')}>
                <li {...bind('style', "'margin-left:' + row.depth * 1.5 + 'em'")}>
                  <label>
                    <input type="checkbox" {...bind('checked', '!excluded.includes(row.item.export_id)')} {...on('change', 'toggle(row.item.export_id)')} /> <strong x-text="row.item.name"></strong>
                  </label>{' '}
                  <small class="empty" x-text="row.item.descendant_resource_count + ' resources, ' + row.item.descendant_note_count + ' notes'"></small>{' '}
                  <small x-show="row.item.guid_match" x-text="'already here as ' + row.item.guid_match_name"></small>
                  <span x-show="row.item.shell">
                    {' '}
                    shell group:{' '}
                    <select x-model="shells[row.item.export_id].action">
                      <option value="create">create</option>
                      <option value="map_to_existing">use an existing group</option>
                    </select>
                    <input type="number" min="1" placeholder="group id" x-show="shells[row.item.export_id].action === 'map_to_existing'" x-model="shells[row.item.export_id].destination" aria-label="group id" />
                  </span>
                </li>
              </template>
            </ul>
          </section>
          <Mappings />
          <section class="card" x-show="plan.series_info.length">
            <h2>Series</h2>
            <ul>
              <template x-for="s in plan.series_info" {...bind('key', 's.export_id')}>
                <li x-text="s.name + ' (' + s.slug + '): ' + (s.action === 'create' ? 'will be created' : 'joins the existing series #' + s.dest_id)"></li>
              </template>
            </ul>
          </section>
          <section class="card" x-show="plan.dangling_refs.length" data-testid="dangling">
            <h2>References to things not in the archive</h2>
            <table class="list">
              <tbody>
                <template x-for="d in plan.dangling_refs" {...bind('key', 'd.id')}>
                  <tr>
                    <td x-text="d.from_name + ' → ' + (d.stub_name || '#' + d.stub_source_id)"></td>
                    <td x-text="d.kind.replace(/_/g, ' ') + (d.relation_type_name ? ' (' + d.relation_type_name + ')' : '')"></td>
                    <td>
                      <select x-model="dangling[d.id].action">
                        <option value="drop">drop</option>
                        <option value="map" {...bind('disabled', "d.kind === 'resource_series_sibling'")}>
                          link to …
                        </option>
                      </select>
                      <input type="number" min="1" placeholder="id here" x-show="dangling[d.id].action === 'map'" x-model="dangling[d.id].destination" aria-label="destination id" />
                    </td>
                  </tr>
                </template>
              </tbody>
            </table>
          </section>
          <section class="card form">
            <h2>Options</h2>
            <Picker label="Put the archive's top groups under" name="parent_group_id" source="/v1/groups" selected={[]} multiple={false} hint="Empty: at the top level." />
            <label class="field">
              <span>Files this library already has</span>
              <select x-model="options.resource_collision_policy">
                <option value="skip">reuse the existing resource</option>
                <option value="duplicate">create a new resource sharing the file</option>
              </select>
            </label>
            <label class="field">
              <span>Entities this library already has (same GUID)</span>
              <select x-model="options.guid_collision_policy">
                <option value="merge">merge: fill in what is missing</option>
                <option value="skip">skip: leave them as they are</option>
                <option value="replace">replace: overwrite them from the archive</option>
              </select>
            </label>
            <label class="field checkbox" x-show="plan.manifest_only_missing_hashes > 0">
              <input type="checkbox" x-model="options.acknowledge_missing_hashes" />{' '}
              <span x-text="plan.manifest_only_missing_hashes + ' file(s) are neither in the archive nor here; import those resources without their bytes'"></span>
            </label>
            <p class="error-banner" x-show="error" x-text="error" role="alert"></p>
            <button type="submit" {...bind('disabled', 'busy')} data-testid="apply">
              Apply
            </button>{' '}
            <button type="button" class="danger" {...on('click', 'discard()')}>
              Delete this staged import
            </button>
          </section>
        </div>
      </template>
    </form>
  );
}

function Result(): SafeHtml {
  return (
    <section class="card" x-show="result" x-cloak data-testid="result">
      <h2>Imported</h2>
      <table class="list">
        <tbody>
          <template x-for="[key, n] in Object.entries(result ?? {}).filter(([k, v]) => typeof v === 'number' && v > 0)" {...bind('key', 'key')}>
            <tr>
              <th x-text="label(key)"></th>
              <td x-text="n"></td>
            </tr>
          </template>
        </tbody>
      </table>
      <p x-show="result?.created_group_ids?.length">
        New groups:{' '}
        <template x-for="id in result?.created_group_ids ?? []" {...bind('key', 'id')}>
          <a {...bind('href', "'/group?id=' + id")} x-text="'#' + id + ' '"></a>
        </template>
      </p>
      <ul x-show="result?.warnings?.length">
        <template x-for="w in result?.warnings ?? []">
          <li x-text="w"></li>
        </template>
      </ul>
    </section>
  );
}

export function registerImportPages(app: FastifyInstance, layout: Layout, lib: Library, store: ImportStore): void {
  registerPage(app, layout, {
    path: '/admin/import',
    needs: 'write',
    load: async (req) => {
      if (!mayImportGroups(req.principal)) throw forbidden(GROUP_IMPORT_REFUSED);
      const q = queryOf(req);
      const visible = jobVisibility(req.principal);
      const staged = (await store.list(visible)).slice(0, 50).map((m) => ({ id: m.id, archiveName: m.archiveName, status: m.status, createdAt: m.createdAt, size: m.size }));
      const id = typeof q.id === 'string' && ImportStore.validId(q.id) ? q.id : null;
      const meta = id ? await store.readMeta(id) : null;
      const job = id ? lib.jobs.get(id, visible) : undefined;
      return {
        pageTitle: 'Import groups',
        importId: id && ((meta && visible(meta.ownerId)) || job) ? id : null,
        status: meta && visible(meta.ownerId) ? meta.status : (job?.status ?? null),
        maxImportSize: Number(lib.settings.get('max_import_size')),
        staged,
      };
    },
    view: (ctx) => (
      <div x-data={`importPage(${JSON.stringify({ importId: ctx.importId, status: ctx.status })})`} data-testid="import-page">
        <script src="/public/transfer.js"></script>
        <Upload limit={ctx.maxImportSize} />
        <JobState title="Reading the archive" watch="parseJob" />
        <Review />
        <JobState title="Importing" watch="applyJob" />
        <Result />
        <p class="error-banner" x-show="error && !plan" x-text="error" role="alert"></p>
        <section class="card">
          <h2>Staged imports</h2>
          <table class="list" data-testid="staged">
            <tbody>
              {ctx.staged.map((s) => (
                <tr>
                  <td>
                    <a href={`/admin/import?id=${s.id}`}>{s.archiveName}</a>
                  </td>
                  <td>{s.status}</td>
                  <td>{formatBytes(s.size)}</td>
                  <td><When at={s.createdAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {ctx.staged.length === 0 ? <p class="empty">Nothing staged.</p> : null}
        </section>
      </div>
    ),
  });
}
