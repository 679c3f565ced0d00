// Resource creation and versions in mah.db (library-plugins.md §11.9): bytes from the plugin or
// from a URL become a resource through the same ingest as an upload (validation, scope, hooks,
// audit), and a URL's bytes become a new version through the version service. URL fetches run
// under the plugin's egress policy and within the entry point's remaining budget. None of these
// may run inside mah.db.transaction: they store files a rollback could not take back.
import { multi } from '../../core/lua/index.js';
import type { StagedFile } from '../../core/storage/file-store.js';
import { visibilityOf } from '../auth/visibility.js';
import type { ResourceWrite } from '../resources/ingest.js';
import { trimName } from '../resources/ingest.js';
import type { ResourceRow } from '../resources/records.js';
import { nameFromUrl, splitUrls } from '../resources/remote.js';
import { idList, optId, options, positiveId, text } from './db-args.js';
import { inPluginTransaction, refusedInTransaction } from './db-tx.js';
import type { DbKit, Row } from './db-kit.js';
import { checkHost, egressFailure, egressGet, egressOf, remainingBudget } from './http.js';

const SCHEME = /^https?:\/\//i;
const BAD_SCHEME = 'unsupported URL scheme (only http and https are allowed)';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHY = 'it stores a file, which a rollback could not take back';

/** Standard base64 (line breaks ignored, padding required), or an error naming what is wrong. */
function decodeBase64(v: unknown): Buffer {
  const s = (text(v) ?? '').replace(/[\r\n]/g, '');
  if (!BASE64.test(s)) throw new Error('invalid base64 data: illegal character');
  if (s.length % 4 !== 0) throw new Error('invalid base64 data: length is not a multiple of 4');
  return Buffer.from(s, 'base64');
}

function lastSegment(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function writeOf(o: Record<string, unknown>): ResourceWrite {
  return {
    Name: text(o.name) || undefined,
    Description: text(o.description),
    OwnerId: optId(o.owner_id, 'owner_id') || undefined,
    Tags: idList(o.tags, 'tags'),
    Groups: idList(o.groups, 'groups'),
    Meta: text(o.meta) || undefined,
  };
}

export function installCreation(k: DbKit, db: Record<string, unknown>): void {
  const { ingest, versions, settings, log, files } = k.s;
  const shape = (r: ResourceRow) => k.entity(r as unknown as Row, { content_type: r.content_type, original_filename: r.original_name, hash: r.hash });
  const refusal = (call: string) => (inPluginTransaction() ? multi(null, refusedInTransaction(`mah.db.${call}`, WHY)) : null);
  const maxBytes = () => {
    const n = Number(settings.get('max_upload_size'));
    return n > 0 ? n : undefined;
  };
  /** Fetches one URL into staging; a non-2xx answer is refused with `status`'s text. */
  const fetchStaged = async (url: string, status: (code: number) => string): Promise<StagedFile> => {
    const res = await egressGet(k.plugin, url, { timeoutMs: remainingBudget(settings.millis('remote_overall_timeout')), maxBytes: maxBytes() }, log);
    if (res.status < 200 || res.status > 299) {
      res.body.destroy();
      throw new Error(status(res.status));
    }
    try {
      return await files.main.stage(res.body);
    } catch (e) {
      throw egressFailure(k.plugin, url, e, log);
    }
  };

  db.create_resource_from_data = k.write(async (data, opts) => {
    const input = writeOf(options(opts));
    const no = refusal('create_resource_from_data');
    if (no) return no;
    let bytes: Buffer;
    try {
      bytes = decodeBase64(data);
    } catch (e) {
      return multi(null, (e as Error).message);
    }
    const name = input.Name ?? 'plugin_upload';
    const actor = k.actor();
    await ingest.prevalidate(input, visibilityOf(actor.principal));
    const staged = await files.main.stageBuffer(bytes);
    return shape(await ingest.fromStaged(actor, staged, trimName(name), { ...input, Name: name }));
  });

  if (!k.has('http')) return;

  db.create_resource_from_url = k.write(async (url, opts) => {
    const input = writeOf(options(opts));
    const no = refusal('create_resource_from_url');
    if (no) return no;
    const urls = splitUrls(text(url) ?? '');
    if (urls.length === 0 || urls.some((u) => !SCHEME.test(u))) return multi(null, BAD_SCHEME);
    // Every line passes the allowlist before anything is fetched.
    const egress = egressOf(k.plugin);
    try {
      for (const u of urls) checkHost(egress, new URL(u));
    } catch (e) {
      return multi(null, (e as Error).message);
    }
    const actor = k.actor();
    await ingest.prevalidate(input, visibilityOf(actor.principal));
    let first: ResourceRow | undefined;
    for (const u of urls) {
      let staged: StagedFile;
      try {
        staged = await fetchStaged(u, (code) => `remote URL returned HTTP ${code}`);
      } catch (e) {
        return multi(null, (e as Error).message);
      }
      const fileName = input.Name ? trimName(input.Name) : nameFromUrl(u);
      const row = await ingest.fromStaged(actor, staged, fileName, { ...input, Name: input.Name ?? fileName, OriginalName: u, OriginalLocation: u }, 400);
      first ??= row;
    }
    return shape(first!);
  });

  db.add_resource_version_from_url = k.write(async (id, url, comment) => {
    const n = positiveId(id, 1, 'add_resource_version_from_url');
    const no = refusal('add_resource_version_from_url');
    if (no) return no;
    const target = (text(url) ?? '').trim();
    if (!SCHEME.test(target)) return multi(null, BAD_SCHEME);
    if (/[\r\n]/.test(target)) return multi(null, 'submit one URL at a time');
    try {
      checkHost(egressOf(k.plugin), new URL(target));
    } catch (e) {
      return multi(null, (e as Error).message);
    }
    const actor = k.actor();
    // Refuse an unseen resource before fetching anything.
    if (!(await k.s.resources.find(k.vis(), n))) return multi(null, `resource ${n} not found`);
    let staged: StagedFile;
    try {
      staged = await fetchStaged(target, (code) => `remote URL returned HTTP ${code}`);
    } catch (e) {
      return multi(null, (e as Error).message);
    }
    const v = await versions.upload(actor, n, staged, lastSegment(target) || 'version_upload', text(comment) ?? '');
    return { id: v.id, resource_id: v.resource_id, version_number: v.version_number, content_type: v.content_type, file_size: Number(v.file_size), hash: v.hash };
  });
}
