// Account UI settings (companion §10.11): key → any JSON value, per account. Keys are 1–128
// characters, values at most 256 KiB of JSON, at most 200 keys per account (the 201st → 409).
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, conflict } from '../../core/http/errors.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import type { UserSettingRepository } from './settings.repository.js';

export const MAX_SETTING_KEYS = 200;
export const MAX_SETTING_VALUE_BYTES = 256 * 1024;
const MAX_KEY = 128;

function validKey(key: string): string {
  const n = [...key].length;
  if (n === 0 || key.trim() === '') throw badRequest('setting key is required');
  if (n > MAX_KEY) throw badRequest(`setting key must be at most ${MAX_KEY} characters`);
  return key;
}

export class AccountSettings {
  private readonly lock = new KeyedLock();

  constructor(private readonly repo: UserSettingRepository) {}

  async all(userId: number): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const { key, value } of await this.repo.all(userId)) out[key] = parseJson<unknown>(value, null);
    return out;
  }

  /** Stores a JSON value (already parsed) under the key; the cap is checked per account under a lock. */
  async put(userId: number, key: string, value: unknown): Promise<void> {
    validKey(key);
    if (value === undefined) throw badRequest('value is required');
    const text = JSON.stringify(value);
    if (Buffer.byteLength(text, 'utf8') > MAX_SETTING_VALUE_BYTES) throw badRequest('value is larger than 256 KiB');
    await this.lock.with(String(userId), async () => {
      if (!(await this.repo.exists(userId, key)) && (await this.repo.count(userId)) >= MAX_SETTING_KEYS) {
        throw conflict(`an account may hold at most ${MAX_SETTING_KEYS} settings`);
      }
      await this.repo.upsert(userId, key, text, nowIso());
    });
  }

  async remove(userId: number, key: string): Promise<void> {
    validKey(key);
    await this.repo.remove(userId, key);
  }
}

/**
 * The value of PUT /v1/account/settings/{key}: a JSON body's `value` as is; from a form or the
 * query string, text that must itself be JSON.
 */
export function settingValue(body: unknown, query: Record<string, unknown>, isJson: boolean): unknown {
  const source = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (isJson) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw badRequest('body must be a JSON object {"value": …}');
    return source.value;
  }
  const raw = source.value ?? query.value;
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined || text === '') throw badRequest('value is required');
  if (typeof text !== 'string') throw badRequest('value must be JSON text');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('value must be valid JSON');
  }
}
