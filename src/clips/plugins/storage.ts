// Plugin storage (companion §8.8): string values per plugin, key ≤ 256 characters, value
// ≤ 1 MiB, everything ≤ 10 MiB. Used by the REST endpoints and the Lua `storage` module alike;
// every write takes effect at once (no rollback when the calling handler fails later).
import { badRequest, HttpError } from '../../core/http/errors.js';
import type { PluginRepository } from './repository.js';

export const MAX_KEY_CHARS = 256;
export const MAX_VALUE_BYTES = 1024 * 1024;
export const MAX_TOTAL_BYTES = 10 * 1024 * 1024;

export class PluginStorage {
  constructor(private readonly repo: PluginRepository) {}

  async all(pluginId: number): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const r of await this.repo.storageAll(pluginId)) out[r.key] = r.value;
    return out;
  }

  get(pluginId: number, key: string): Promise<string | undefined> {
    return this.repo.storageGet(pluginId, key);
  }

  keys(pluginId: number): Promise<string[]> {
    return this.repo.storageKeys(pluginId);
  }

  /** 400 for a bad key, 413 for a value or total over the limits. */
  async set(pluginId: number, key: string, value: string): Promise<void> {
    if (key.length === 0) throw badRequest('storage key cannot be empty');
    if ([...key].length > MAX_KEY_CHARS) throw badRequest(`storage key too long (max ${MAX_KEY_CHARS} characters)`);
    const size = Buffer.byteLength(value);
    if (size > MAX_VALUE_BYTES) throw new HttpError(413, 'storage value exceeds 1 MiB');
    // Characters approximate bytes for the total; the exact figure matters less than the bound.
    if ((await this.repo.storageSize(pluginId, key)) + value.length > MAX_TOTAL_BYTES) throw new HttpError(413, 'plugin storage exceeds 10 MiB');
    await this.repo.storagePut(pluginId, key, value);
  }

  delete(pluginId: number, key: string): Promise<void> {
    return this.repo.storageDelete(pluginId, key);
  }
}
