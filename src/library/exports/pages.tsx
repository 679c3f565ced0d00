// The export page (companion §6.4, /admin/export?groups=1,2): pick groups, set the scope,
// fidelity and schema toggles, related depth and gzip, estimate, export, watch the job through
// the live job events and download the archive while the export retention lasts.
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import { Picker, queryOf } from '../ui/components.js';
import { EXPORT_DEFAULTS, MAX_RELATED_DEPTH } from './options.js';
import type { ExportRepository } from './repository.js';

const LABELS: Record<'scope' | 'fidelity' | 'schemaDefs', [string, Record<string, string>]> = {
  scope: [
    'Scope',
    {
      subtree: 'Sub-groups (the whole tree below each group)',
      owned_resources: 'Resources the groups own',
      owned_notes: 'Notes the groups own',
      related_m2m: 'Links to related groups, resources and notes',
      group_relations: 'Typed relations between groups',
    },
  ],
  fidelity: [
    'Files',
    {
      resource_blobs: 'File bytes',
      resource_versions: 'All versions of each file',
      resource_previews: 'Cached thumbnails',
      resource_series: 'Series and their shared metadata',
    },
  ],
  schemaDefs: [
    'Definitions',
    {
      categories_and_types: 'Categories, note types and resource categories (with templates and schemas)',
      tags: 'Tags (with descriptions and metadata)',
      group_relation_types: 'Relation types',
    },
  ],
};

function Toggles(props: { section: 'scope' | 'fidelity' | 'schemaDefs' }): SafeHtml {
  const [title, labels] = LABELS[props.section];
  return (
    <fieldset class="field">
      <span>{title}</span>
      {Object.entries(labels).map(([key, label]) => (
        <label class="checkbox">
          <input type="checkbox" x-model={`options.${props.section}.${key}`} /> {label}
        </label>
      ))}
    </fieldset>
  );
}

function ids(raw: string | string[] | undefined): number[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return [...new Set(list.flatMap((v) => v.split(',')).map((v) => Number(v.trim())).filter((n) => Number.isSafeInteger(n) && n > 0))].slice(0, 100);
}

export function registerExportPages(app: FastifyInstance, layout: Layout, lib: Library, repo: ExportRepository): void {
  registerPage(app, layout, {
    path: '/admin/export',
    needs: 'write',
    load: async (req) => {
      const q = queryOf(req);
      const wanted = ids(q.groups);
      const rows = await repo.groupNames(wanted);
      const byId = new Map(rows.map((r) => [r.id, r.name]));
      const job = typeof q.job === 'string' && /^[0-9a-f]{16}$/.test(q.job) ? q.job : null;
      return {
        pageTitle: 'Export groups',
        selected: wanted.filter((id) => byId.has(id)).map((id) => ({ id, name: byId.get(id)! })),
        defaults: { ...EXPORT_DEFAULTS, gzip: false, relatedDepth: 0 },
        retentionMs: lib.settings.millis('export_retention'),
        job,
      };
    },
    view: (ctx) => {
      const config = { defaults: ctx.defaults, retentionMs: ctx.retentionMs, job: ctx.job };
      return (
        <div x-data={`exportPage(${JSON.stringify(config)})`} data-testid="export-page">
          <script src="/public/transfer.js"></script>
          <form class="card form" {...{ '@submit.prevent': 'submit()' }} x-ref="form">
            <Picker label="Groups to export" name="rootGroupIds" source="/v1/groups" selected={ctx.selected} hint="Each group is exported with what the options below include." />
            <Toggles section="scope" />
            <label class="field">
              <span>Related depth</span>
              <input type="number" min="0" max={MAX_RELATED_DEPTH} x-model="options.relatedDepth" />
              <small>Also export groups reachable through related-group links up to this many steps, without their content ("shell" groups).</small>
            </label>
            <Toggles section="fidelity" />
            <Toggles section="schemaDefs" />
            <label class="field checkbox">
              <input type="checkbox" x-model="options.gzip" /> <span>Compress the archive (gzip)</span>
            </label>
            <p class="error-banner" x-show="error" x-text="error" role="alert"></p>
            <p>
              <button type="button" {...{ '@click': 'estimate()' }} data-testid="estimate">
                Estimate
              </button>{' '}
              <button type="submit" data-testid="export">
                Export
              </button>
            </p>
          </form>
          <section class="card" x-show="estimation" x-cloak data-testid="estimate-result">
            <h2>Estimate</h2>
            <table class="list">
              <tbody>
                <template x-for="(n, key) in estimation?.counts ?? {}" {...{ ':key': 'key' }}>
                  <tr>
                    <th x-text="key.replace('_', ' ')"></th>
                    <td x-text="n"></td>
                  </tr>
                </template>
                <tr>
                  <th>estimated size</th>
                  <td x-text="bytes(estimation?.estimatedBytes ?? 0)"></td>
                </tr>
                <template x-for="(n, kind) in estimation?.danglingByKind ?? {}" {...{ ':key': 'kind' }}>
                  <tr>
                    <th x-text="'outside the export: ' + kind.replace(/_/g, ' ')"></th>
                    <td x-text="n"></td>
                  </tr>
                </template>
              </tbody>
            </table>
          </section>
          <section class="card" x-show="job" x-cloak data-testid="export-job">
            <h2>Export</h2>
            <p>
              <span x-text="job?.status"></span> <small class="empty" x-text="job?.phase !== job?.status ? job?.phase ?? '' : ''"></small> <small class="empty" x-text="job?.error ?? ''"></small>
            </p>
            <progress max="100" {...{ ':value': 'job && job.progressPercent >= 0 ? job.progressPercent : null' }}></progress>
            <ul x-show="job?.warnings?.length">
              <template x-for="w in job?.warnings ?? []">
                <li x-text="w"></li>
              </template>
            </ul>
            <p x-show="job?.status === 'completed'">
              <a class="button" {...{ ':href': "'/v1/exports/' + job?.id + '/download'" }} data-testid="download">
                Download the archive
              </a>{' '}
              <small class="empty" x-text="'available until ' + until(job)"></small>
            </p>
          </section>
          <section class="card">
            <h2>Recent exports</h2>
            <table class="list" data-testid="recent-exports">
              <tbody>
                <template x-for="j in exports" {...{ ':key': 'j.id' }}>
                  <tr>
                    <td x-text="j.createdAt.replace('T', ' ').slice(0, 16)"></td>
                    <td x-text="j.status"></td>
                    <td>
                      <a x-show="j.status === 'completed'" {...{ ':href': "'/v1/exports/' + j.id + '/download'" }}>
                        download
                      </a>{' '}
                      <small class="empty" x-show="j.status === 'completed'" x-text="'until ' + until(j)"></small>
                    </td>
                  </tr>
                </template>
              </tbody>
            </table>
            <p class="empty" x-show="exports.length === 0">
              No exports in the job queue.
            </p>
          </section>
        </div>
      );
    },
  });
}
