// The `group-import-apply` job (companion §7.5 step 4): schema definitions, series, groups top
// down, resources, notes, then links and relations, each phase reported on the job. The result
// is kept beside the plan, which is then marked consumed; one aggregate audit entry records
// what the import created (also when it stopped midway). A failed or cancelled apply leaves
// the plan applicable again: entities created so far carry their archive GUIDs, so a second
// run merges into them instead of duplicating them.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobKind } from '../../core/jobs/queue.js';
import type { EventBus, RequestOrigin } from '../../core/events/bus.js';
import type { Principal } from '../auth/principal.js';
import type { ArchiveIndex } from './archive-index.js';
import type { Decisions } from './decisions.js';
import type { Plan } from './plan.js';
import type { ImportStore } from './staging.js';
import { ApplyRun, type ApplyDeps, type ImportResult } from './apply/run.js';
import { applySchema } from './apply/schema.js';
import { applyGroups } from './apply/groups.js';
import { applyResources, resolveExistingSeries } from './apply/resources.js';
import { applyNotes } from './apply/notes.js';
import { applyLinks } from './apply/links.js';

export const IMPORT_APPLY = 'group-import-apply';
const JOB_WARNINGS = 100;

export interface ApplyPayload {
  importId: string;
  decisions: Decisions;
  principal: Principal;
  origin?: RequestOrigin;
}

export interface ApplyKindDeps {
  bus: EventBus<Principal>;
  /** What every apply run works with (repositories, transactions, blocks, resource storage). */
  apply: Omit<ApplyDeps, 'dir'>;
  store: ImportStore;
}

function summary(file: string, r: ImportResult): string {
  const parts = [
    [r.created_groups + r.created_shell_groups, 'groups'],
    [r.created_resources, 'resources'],
    [r.created_notes, 'notes'],
    [r.created_tags, 'tags'],
    [r.created_categories + r.created_note_types + r.created_resource_categories, 'categories and types'],
    [r.created_grts, 'relation types'],
    [r.created_series, 'series'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${what}`);
  const merged = r.merged_groups + r.merged_resources + r.merged_notes;
  return `Imported ${file}: created ${parts.length ? parts.join(', ') : 'nothing'}${merged ? `; merged ${merged} existing` : ''}`;
}

export function applyKind(deps: ApplyKindDeps): JobKind<ApplyPayload> {
  return {
    pausable: false,
    runningStatus: 'processing',
    async run(payload, ctx, job) {
      const { bus, store } = deps;
      const id = payload.importId;
      const actor = { principal: payload.principal, origin: payload.origin };
      ctx.phase('reading archive');
      const meta = await store.readMeta(id);
      if (!meta) throw new Error('the staged import is gone');
      if (meta.status === 'applied') throw new Error('this import was already applied');
      await store.update(id, { status: 'applying', applyJobId: job.id });
      const [index, plan] = await Promise.all([store.readJson<ArchiveIndex>(id, 'index.json'), store.readJson<Plan>(id, 'plan.json')]);
      if (!index || !plan) throw new Error('the staged import is gone');
      const run = new ApplyRun({ ...deps.apply, dir: store.dir(id) }, index, plan, payload.decisions, actor, ctx);
      await bus.before({ entityType: 'group_import', action: 'create', principal: actor.principal, origin: actor.origin });
      let failure: Error | null = null;
      try {
        ctx.phase('resolving schema definitions');
        await applySchema(run);
        ctx.phase('resolving series');
        await resolveExistingSeries(run);
        ctx.phase('creating groups');
        await applyGroups(run);
        ctx.phase('creating resources');
        await applyResources(run);
        ctx.phase('creating notes');
        await applyNotes(run);
        ctx.phase('wiring relationships');
        run.checkCancelled();
        await applyLinks(run);
      } catch (e) {
        failure = e as Error;
      }
      await bus.after({
        entityType: 'group_import',
        action: 'create',
        name: plan.archive.file_name,
        message: summary(plan.archive.file_name, run.result) + (failure ? ` (stopped: ${failure.message})` : ''),
        after: { importId: id, created_group_ids: run.result.created_group_ids, created_resource_ids: run.result.created_resource_ids, created_note_ids: run.result.created_note_ids },
        principal: actor.principal,
        origin: actor.origin,
      });
      if (failure) {
        await store.update(id, { status: 'ready', error: `the last apply stopped: ${failure.message}` }).catch(() => undefined);
        throw failure;
      }
      await store.writeJson(id, 'result.json', run.result);
      await store.update(id, { status: 'applied', appliedAt: new Date().toISOString(), error: undefined });
      // The plan and result stay; the extracted bytes are no longer needed.
      for (const sub of ['json', 'blobs', 'previews']) await rm(join(store.dir(id), sub), { recursive: true, force: true });
      for (const w of run.result.warnings.slice(0, JOB_WARNINGS)) ctx.warn(w);
      ctx.phase('completed');
      return {};
    },
  };
}
