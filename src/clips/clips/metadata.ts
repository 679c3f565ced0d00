// Clip metadata (companion §3.11): string keys to string values, at most 50 pairs, keys 1–256
// and values up to 4096 characters. Replacing the whole set is one transaction.
import { badRequest } from '../../core/http/errors.js';
import type { ClipContext } from '../context.js';
import { MetadataRepository } from './metadata.repository.js';

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
  private readonly repo: MetadataRepository;

  constructor(private readonly ctx: ClipContext) {
    this.repo = new MetadataRepository(ctx.db);
  }

  async get(clipId: number): Promise<Record<string, string>> {
    const rows = await this.repo.list(clipId);
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
      return { key, value: checkValue(key, value) };
    });
    await this.ctx.db.transaction().execute((trx) => this.repo.in(trx).replaceAll(clipId, rows));
  }

  async put(clipId: number, key: string, body: unknown): Promise<void> {
    checkKey(key);
    const value = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).value : undefined;
    if (value === undefined) throw badRequest('value is required');
    checkValue(key, value);
    await this.ctx.db.transaction().execute(async (trx) => {
      const repo = this.repo.in(trx);
      if (!(await repo.has(clipId, key)) && (await repo.count(clipId)) >= MAX_PAIRS) throw badRequest(`metadata limit reached (max ${MAX_PAIRS} pairs)`);
      await repo.put(clipId, key, value as string);
    });
  }

  async delete(clipId: number, key: string): Promise<void> {
    await this.repo.delete(clipId, key);
  }
}
