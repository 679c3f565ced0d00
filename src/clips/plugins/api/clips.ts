// The `clips` and `metadata` Lua modules (companion §8.6). They go through the same services as
// the REST API, so limits, detection and events apply; the plugin acts as an unscoped admin.
import { readFile } from 'node:fs/promises';
import { multi } from '../../../core/lua/index.js';
import type { ClipContext } from '../../context.js';
import { isTextType } from '../../clips/content-type.js';
import { validFilename } from '../../clips/filenames.js';
import type { MetadataService } from '../../clips/metadata.js';
import type { ClipRow } from '../../clips/repository.js';
import type { ClipService } from '../../clips/service.js';
import { bytesArg, guard, idArg, optionsTable, PluginApiError, textArg } from './common.js';

export const MAX_CREATE_BYTES = 10 * 1024 * 1024;
/** Clips larger than this are not handed to Lua whole (the VM is capped at 50 MB). */
const MAX_READ_BYTES = 40 * 1024 * 1024;

export interface ClipApiDeps {
  ctx: ClipContext;
  clips: ClipService;
  metadata: MetadataService;
}

const unixSeconds = (stored: string) => Math.floor(Date.parse(stored) / 1000);
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeBase64(text: string): Buffer {
  const compact = text.replace(/[\r\n]/g, '');
  if (!STRICT_BASE64.test(compact)) throw new PluginApiError('invalid base64 data: illegal base64 data or wrong padding');
  return Buffer.from(compact, 'base64');
}

function item(row: ClipRow) {
  return { id: row.id, content_type: row.content_type, filename: row.filename, created_at: unixSeconds(row.created_at), is_archived: row.is_archived === 1 };
}

/** A declared type: absent, or `type/subtype` of at most 256 characters. */
function declaredType(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  const t = textArg(raw, 'content_type');
  if (t.length > 256 || !/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/.test(t.split(';')[0].trim())) {
    throw new PluginApiError(`invalid content type: ${t.slice(0, 80)}`);
  }
  return t.split(';')[0].trim().toLowerCase();
}

function filenameOf(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  const name = textArg(raw, 'filename');
  return name.trim() === '' ? '' : validFilename(name);
}

export class ClipApi {
  constructor(private readonly deps: ClipApiDeps) {}

  private now() {
    return this.deps.clips.now();
  }

  private async live(id: unknown): Promise<ClipRow | undefined> {
    return this.deps.clips.repo.findLive(idArg(id, 'clip id'), this.now());
  }

  private async bytes(row: ClipRow): Promise<Buffer> {
    if (row.size > MAX_READ_BYTES) throw new PluginApiError('clip too large to read');
    return readFile(this.deps.ctx.blobs.pathOf(row.content_hash));
  }

  /** Text clips as text, anything else base64 with its encoding named. */
  private async encoded(row: ClipRow): Promise<{ data: string; encoding?: 'base64' }> {
    const buf = await this.bytes(row);
    return isTextType(row.content_type) ? { data: buf.toString('utf8') } : { data: buf.toString('base64'), encoding: 'base64' };
  }

  /** Where a live clip's bytes are, for modules that read files themselves (image). */
  async pathOf(id: number): Promise<{ file: string; size: number; contentType: string } | null> {
    const row = await this.deps.clips.repo.findLive(id, this.now());
    return row ? { file: this.deps.ctx.blobs.pathOf(row.content_hash), size: row.size, contentType: row.content_type } : null;
  }

  /** Stores new bytes as a clip (no dedup) and returns its id. */
  async store(data: Buffer, filename: string, type: string | null): Promise<number> {
    if (data.length > MAX_CREATE_BYTES) throw new PluginApiError('data exceeds 10 MiB limit');
    const staged = await this.deps.ctx.blobs.stage([data], MAX_CREATE_BYTES);
    const { clip } = await this.deps.clips.createFromStaged(staged, { filename, declaredType: type }, { dedup: false });
    return clip.id;
  }

  module() {
    return {
      list: guard(async (filter: unknown) => {
        const f = optionsTable(filter);
        const limit = typeof f.limit === 'number' ? Math.min(1000, Math.max(1, Math.trunc(f.limit))) : 100;
        const offset = typeof f.offset === 'number' ? Math.max(0, Math.trunc(f.offset)) : 0;
        const contentType = f.content_type === undefined || f.content_type === null ? undefined : textArg(f.content_type, 'content_type');
        const rows = await this.deps.clips.repo.list({ now: this.now(), contentType }, { limit, offset });
        return rows.map(item);
      }),
      get: guard(async (id: unknown) => {
        const row = await this.live(id);
        if (!row) return null;
        const { data, encoding } = await this.encoded(row);
        return { ...item(row), data, data_encoding: encoding };
      }),
      get_data: guard(async (id: unknown) => {
        const row = await this.live(id);
        if (!row) return multi(null, 'clip not found');
        return multi((await this.encoded(row)).data, row.content_type);
      }),
      create: guard(async (opts: unknown) => {
        const o = optionsTable(opts);
        if (o.data === undefined || o.data === null) throw new PluginApiError('data is required');
        const type = declaredType(o.content_type ?? o.mime_type);
        const raw = bytesArg(o.data, 'data');
        const textual = type !== null && (type.startsWith('text/') || type === 'application/json');
        const base64 = o.data_encoding === 'base64' || !textual;
        const data = base64 ? decodeBase64(raw.toString('latin1')) : raw;
        const filename = filenameOf(o.filename ?? o.name);
        return { id: await this.store(data, filename, type === 'application/octet-stream' ? null : type) };
      }),
      update: guard(async (id: unknown, changes: unknown) => {
        const row = await this.live(id);
        if (!row) throw new PluginApiError('clip not found');
        const c = optionsTable(changes);
        if (typeof c.is_archived === 'boolean') await this.deps.clips.setArchived([row.id], c.is_archived);
        return true;
      }, false),
      delete: guard(async (id: unknown) => {
        await this.deps.clips.deleteMany([idArg(id, 'clip id')]);
        return true;
      }, false),
      delete_many: guard(async (arg: unknown) => {
        const list = Array.isArray(arg) ? arg : optionsTable(arg).ids;
        if (!Array.isArray(list)) throw new PluginApiError('ids must be a list of clip ids');
        await this.deps.clips.deleteMany(list.map((v) => idArg(v, 'clip id')));
        return true;
      }, false),
      archive: guard(async (id: unknown) => {
        await this.deps.clips.setArchived([idArg(id, 'clip id')], true);
        return true;
      }, false),
      unarchive: guard(async (id: unknown) => {
        await this.deps.clips.setArchived([idArg(id, 'clip id')], false);
        return true;
      }, false),
    };
  }

  metadataModule() {
    const { metadata } = this.deps;
    const clipId = async (id: unknown) => {
      const row = await this.live(id);
      if (!row) throw new PluginApiError('clip not found');
      return row.id;
    };
    return {
      get: guard(async (id: unknown) => metadata.get(await clipId(id))),
      set: guard(async (id: unknown, key: unknown, value: unknown) => {
        await metadata.put(await clipId(id), textArg(key, 'key'), { value: value === null ? undefined : textArg(value, 'value') });
        return true;
      }, false),
      delete: guard(async (id: unknown, key: unknown) => {
        await metadata.delete(await clipId(id), textArg(key, 'key'));
        return true;
      }, false),
      set_bulk: guard(async (id: unknown, pairs: unknown) => {
        await metadata.replace(await clipId(id), optionsTable(pairs));
        return true;
      }, false),
    };
  }
}
