// Clip metadata (companion §3.11): string keys to string values, at most 50 pairs, keys 1–256
// and values up to 4096 characters. Replacing the whole set is one transaction.
import { badRequest } from '../../core/http/errors.js';
import type { ClipContext } from '../context.js';

export const MAX_PAIRS = 50;
export const MAX_KEY = 256;
export const MAX_VALUE = 4096;

const length = (s: string) => [...s].length;

function checkKey(key: string): void {
  if (length(key) < 1) throw badRequest('metadata key cannot be empty');
  if (length(key) > MAX_KEY) throw badRequest(`metadata key too long (max ${MAX_KEY} characters)`);
}

function checkValue(key: string, value: unknown): string {
  if (typeof value !== 'string') throw badRequest(`metadata value of ${JSON.stringify(key)} must be a string`);
  if (length(value) > MAX_VALUE) throw badRequest(`metadata value too long (max ${MAX_VALUE} characters)`);
  return value;
}

export class MetadataService {
  constructor(private readonly ctx: ClipContext) {}

  async get(clipId: number): Promise<Record<string, string>> {
    const rows = await this.ctx.db.selectFrom('clip_metadata').select(['key', 'value']).where('clip_id', '=', clipId).orderBy('key').execute();
    const out: Record<string, string> = {};
    for (const r of rows) out[r.key] = r.value;
    return out;
  }

  async replace(clipId: number, body: unknown): Promise<void> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('metadata must be a JSON object of string values');
    const entries = Object.entries(body as Record<string, unknown>);
    if (entries.length > MAX_PAIRS) throw badRequest(`metadata limit reached (max ${MAX_PAIRS} pairs)`);
    const rows = entries.map(([key, value]) => {
      checkKey(key);
      return { clip_id: clipId, key, value: checkValue(key, value) };
    });
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('clip_metadata').where('clip_id', '=', clipId).execute();
      if (rows.length > 0) await trx.insertInto('clip_metadata').values(rows).execute();
    });
  }

  async put(clipId: number, key: string, body: unknown): Promise<void> {
    checkKey(key);
    const value = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).value : undefined;
    if (value === undefined) throw badRequest('value is required');
    checkValue(key, value);
    await this.ctx.db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('clip_metadata').select('key').where('clip_id', '=', clipId).where('key', '=', key).executeTakeFirst();
      if (!exists) {
        const n = await trx.selectFrom('clip_metadata').select((eb) => eb.fn.countAll<number>().as('n')).where('clip_id', '=', clipId).executeTakeFirstOrThrow();
        if (Number(n.n) >= MAX_PAIRS) throw badRequest(`metadata limit reached (max ${MAX_PAIRS} pairs)`);
      }
      await trx
        .insertInto('clip_metadata')
        .values({ clip_id: clipId, key, value: value as string })
        .onConflict((oc) => oc.columns(['clip_id', 'key']).doUpdateSet({ value: value as string }))
        .execute();
    });
  }

  async delete(clipId: number, key: string): Promise<void> {
    await this.ctx.db.deleteFrom('clip_metadata').where('clip_id', '=', clipId).where('key', '=', key).execute();
  }
}
