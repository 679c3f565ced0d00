// The MRQL feature: one engine per library, saved queries, rendering of results, and the
// mapping of MRQL errors to HTTP errors.
import { HttpError, badRequest } from '../../core/http/errors.js';
import type { Kysely } from 'kysely';
import type { Library } from '../context.js';
import type { Principal } from '../auth/principal.js';
import { MrqlEngine, type MrqlResult, type RunOptions, type Stats } from './engine.js';
import { MrqlError } from './errors.js';
import { SavedMrqlQueries } from './saved.js';

/** Renders `renderedHTML` on result entities (set by the template engine, §16). */
export type ResultRenderer = (result: MrqlResult, principal: Principal | undefined) => Promise<void>;

export function toHttpError(e: unknown): unknown {
  if (!(e instanceof MrqlError)) return e;
  const extra = e.positioned ? { position: e.position, length: e.length } : {};
  return new HttpError(e.status, e.message, extra);
}

/** Runs `work`, turning MRQL errors into HTTP errors. */
export async function httpErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw toHttpError(e);
  }
}

const services = new WeakMap<Library, MrqlService>();

/** The MRQL service of a running library (in-process callers: list filters of other features, tests, benchmarks). */
export function mrqlServiceOf(lib: Library): MrqlService | undefined {
  return services.get(lib);
}

export class MrqlService {
  readonly engine: MrqlEngine;
  readonly saved: SavedMrqlQueries;
  renderer: ResultRenderer | null = null;

  constructor(readonly lib: Library) {
    // Read at every use, so a runtime-settings change applies to the next query.
    const settings = lib.settings;
    this.engine = new MrqlEngine(lib.db as unknown as Kysely<unknown>, lib.dialect.kind, lib.config.fts, {
      get defaultLimit() {
        return Number(settings.get('mrql_default_limit'));
      },
      get timeoutMs() {
        return settings.millis('mrql_query_timeout');
      },
      get pageQueryBudget() {
        return Number(settings.get('mrql_page_query_budget'));
      },
      get similarityThreshold() {
        return Number(settings.get('hash_similarity_threshold'));
      },
      get ahashThreshold() {
        return Number(settings.get('hash_ahash_threshold'));
      },
    });
    this.saved = new SavedMrqlQueries(lib);
    services.set(lib, this);
  }

  async execute(text: string, opts: RunOptions, render = false, stats?: Stats): Promise<MrqlResult> {
    if (text.trim() === '') throw badRequest('query is required');
    return httpErrors(async () => {
      const result = await this.engine.execute(text, opts, stats);
      if (render && this.renderer) {
        try {
          await this.renderer(result, opts.principal);
        } catch (e) {
          throw new HttpError(500, `rendering failed: ${(e as Error).message}`);
        }
      }
      return result;
    });
  }

  /** Runs a saved query: revalidated on every run (§14.7). */
  async runSaved(text: string, opts: RunOptions, render: boolean): Promise<MrqlResult> {
    try {
      return await this.execute(text, opts, render);
    } catch (e) {
      if (e instanceof HttpError && /^(parse|validation) error at position/.test(e.message)) {
        throw new HttpError(400, `saved query is no longer valid: ${e.message}`, e.extra);
      }
      throw e;
    }
  }
}
