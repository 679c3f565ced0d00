// The download job: fetch the URL through the guarded fetcher (timeouts read when the job
// starts, so runtime settings apply to the next download) and stream the body, counting
// progress, into the resource importer, which stages and stores it like an upload.
import { STATUS_CODES } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { FetchError, safeFetch } from '../../core/net/safe-fetch.js';
import type { PluginEgress } from './service.js';
import type { JobKind } from '../../core/jobs/queue.js';
import type { AddressPolicy } from '../../core/net/addresses.js';
import type { RuntimeSettings } from '../admin/settings.js';
import type { Principal } from '../auth/principal.js';
import type { DownloadPayload } from './payload.js';
import type { DownloadPacer } from './pacing.js';

export interface DownloadedFile {
  payload: DownloadPayload;
  /** The response body; the importer stages it into the store. */
  body: Readable;
  /** The importer calls this once the whole body is staged (the job turns to processing). */
  bodyRead: () => void;
  /** The final URL after redirects. */
  url: string;
  contentType: string;
  /** From Content-Disposition, when the server named the file. */
  fileName: string;
  /** Who queued the job, as that account stands now (its current role and scope). */
  owner: Principal;
}

/** Turns a downloaded body into a resource; returns its id. */
export type DownloadImporter = (file: DownloadedFile) => Promise<number>;

export interface DownloadKindOptions {
  policy: AddressPolicy;
  settings: RuntimeSettings;
  importer: DownloadImporter;
  /** Who submitted each job (the queue keeps owners; the importer acts as them). */
  ownerOf: (jobId: string) => number | null | undefined;
  /**
   * The submitter as it stands when the job (re)starts — a first run, a resume or a retry —
   * with its targets checked against its current scope; throws when it may no longer do this.
   */
  actingAs: (ownerId: number | null, payload: DownloadPayload) => Promise<Principal>;
  /** The egress policy of the plugin that queued a job, looked up at every attempt. */
  pluginEgress: (plugin: string) => PluginEgress | null;
  /** Holds plugins' jobs back by their download_limits and hears the answers that pause them. */
  pacer: DownloadPacer;
  /** Refused fetches are reported with their detail (never shown to the client). */
  onBlocked: (url: string, detail: Record<string, unknown>) => void;
}

function dispositionName(header: string | undefined): string {
  if (!header) return '';
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : '';
}

export function downloadKind(o: DownloadKindOptions): JobKind<DownloadPayload> {
  return {
    pausable: true,
    runningStatus: 'downloading',
    admission: o.pacer,
    async run(payload, ctx, job) {
      // Checked before anything is fetched: the owner may have lost the target since submitting.
      const owner = await o.actingAs(o.ownerOf(job.id) ?? null, payload);
      const maxBytes = Number(o.settings.get('max_upload_size'));
      const egress = payload.plugin === undefined ? null : o.pluginEgress(payload.plugin);
      if (payload.plugin !== undefined && !egress) {
        throw new Error(`refusing to download: plugin "${payload.plugin}" is not enabled or its network policy is unavailable`);
      }
      let res;
      try {
        res = await safeFetch(payload.url, {
          policy: egress?.policy ?? o.policy,
          checkUrl: egress?.checkUrl,
          connectTimeoutMs: o.settings.millis('remote_connect_timeout'),
          idleTimeoutMs: o.settings.millis('remote_idle_timeout'),
          overallTimeoutMs: o.settings.millis('remote_overall_timeout'),
          maxBytes: maxBytes > 0 ? maxBytes : undefined,
          signal: ctx.signal,
        });
      } catch (e) {
        if (e instanceof FetchError && e.reason === 'blocked') o.onBlocked(payload.url, e.detail);
        throw e;
      }
      if (res.status < 200 || res.status > 299) {
        res.body.destroy();
        o.pacer.answered(payload, res.status, res.headers['retry-after']);
        throw new Error(`HTTP ${res.status}: ${STATUS_CODES[res.status] ?? 'error'}`);
      }
      const total = res.contentLength ?? -1;
      ctx.progress(0, total);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          ctx.progress(size, total);
          done(null, chunk);
        },
      });
      res.body.on('error', (e) => counter.destroy(e));
      // Nobody may be reading yet when an error arrives; it must not become uncaught.
      counter.on('error', () => undefined);
      try {
        return { resourceId: await o.importer({
          payload,
          body: res.body.pipe(counter),
          bodyRead: () => {
            ctx.progress(size, total >= 0 ? total : size);
            ctx.processing();
          },
          url: res.url,
          contentType: String(res.headers['content-type'] ?? ''),
          fileName: dispositionName(res.headers['content-disposition']),
          owner,
        }) };
      } finally {
        // An importer that stopped early (refused parameters, duplicate) leaves the body unread.
        res.body.destroy();
      }
    },
  };
}
