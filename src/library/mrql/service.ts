// The MRQL feature's service: queries through the engine, saved queries, rendering of results on
// request. MRQL errors travel as MrqlError; the server's error handler maps them (errors.ts).
import { badRequest } from '../../core/http/errors.js';
import type { Principal } from '../auth/principal.js';
import type { MrqlEngine } from './engine.js';
import { MrqlError } from './errors.js';
import { CSV_NEEDS_TYPE } from './export.js';
import type { SavedMrqlQueries } from './saved.js';
import type { MrqlResult, RunOptions, Stats } from './types.js';

/** Renders `renderedHTML` on result entities (the shortcode engine, §16). */
export type ResultRenderer = (result: MrqlResult, principal: Principal | undefined) => Promise<void>;

export class MrqlService {
  constructor(
    readonly engine: MrqlEngine,
    readonly saved: SavedMrqlQueries,
  ) {}

  /** Runs a query; with `render`, fills renderedHTML on its entities. */
  async execute(text: string, opts: RunOptions, render?: ResultRenderer, stats?: Stats): Promise<MrqlResult> {
    if (text.trim() === '') throw badRequest('query is required');
    const result = await this.engine.execute(text, opts, stats);
    if (render) {
      try {
        await render(result, opts.principal);
      } catch (e) {
        throw new MrqlError('render', `rendering failed: ${(e as Error).message}`, 0, 0, 500);
      }
    }
    return result;
  }

  /** Runs a saved query: revalidated on every run (§14.7). */
  async runSaved(text: string, opts: RunOptions, render?: ResultRenderer): Promise<MrqlResult> {
    try {
      return await this.execute(text, opts, render);
    } catch (e) {
      if (e instanceof MrqlError && (e.kind === 'parse' || e.kind === 'validation')) throw e.reportedAs({ prefix: 'saved query is no longer valid' });
      throw e;
    }
  }

  /** The statements a query would run, without running them (§14.4). */
  async explain(text: string, opts: RunOptions, nativePlan: boolean): Promise<Record<string, unknown>> {
    return this.engine.explain(text, opts, nativePlan);
  }

  /** Checks an export before the download starts: the query runs through stages 1–8 only. */
  async preflightExport(text: string, opts: RunOptions, format: string): Promise<void> {
    const p = await this.engine.prepare(text, opts, { statements: 0, rows: 0 });
    if (format === 'csv' && p.entity === 'unspecified') throw badRequest(CSV_NEEDS_TYPE);
  }

  /** The engine's current time (export file names). */
  now(): Date {
    return this.engine.clock();
  }
}
