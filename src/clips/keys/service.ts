// API key rules (companion §6): creation with role and optional tag scope, listing, soft
// revocation, per-request authentication through an exact key cache, and the 7-day purge.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badRequest, HttpError, notFound } from '../../core/http/errors.js';
import { keyStamp } from '../clock.js';
import type { ClipContext } from '../context.js';
import { isRole, type KeyPrincipal, type Role } from '../http/principal.js';
import { generateKey, hashKey } from './generate.js';
import { TagRepository } from '../tags/repository.js';
import { KeyCache } from './cache.js';
import { KeyRepository, type KeyRow } from './repository.js';

export const MAX_KEY_NAME = 100;
export const REVOKED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface KeyInfo {
  id: number;
  name: string;
  key_prefix: string;
  role: string;
  scoped_tag_id: number;
  scoped_tag_name: string;
  is_revoked: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function keyInfo(row: KeyRow): KeyInfo {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    role: row.role,
    scoped_tag_id: row.scoped_tag_id ?? 0,
    scoped_tag_name: row.scoped_tag_name ?? '',
    is_revoked: row.is_revoked === 1,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

export interface KeyRequest {
  name?: unknown;
  role?: unknown;
  scoped_tag_id?: unknown;
}

const unauthorized = (message: string) => new HttpError(401, message, {}, { 'WWW-Authenticate': 'Bearer' });

export class KeyService {
  readonly repo: KeyRepository;
  private readonly cache: KeyCache;

  constructor(private readonly ctx: ClipContext) {
    this.repo = new KeyRepository(ctx.db);
    this.cache = KeyCache.for(ctx.sqlite);
  }

  /** Mints a key; the plaintext is returned here once and never stored. */
  async create(input: KeyRequest): Promise<{ key: string; info: KeyInfo }> {
    if (input.name !== undefined && input.name !== null && typeof input.name !== 'string') throw badRequest('name must be a string');
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name === '') throw badRequest('key name cannot be empty');
    if ([...name].length > MAX_KEY_NAME) throw badRequest(`key name too long (max ${MAX_KEY_NAME} characters)`);

    let role: Role = 'viewer';
    if (input.role !== undefined && input.role !== null && input.role !== '') {
      if (!isRole(input.role)) throw badRequest(`invalid role: ${String(input.role)} (must be viewer, editor, or admin)`);
      role = input.role;
    }

    let scopedTagId: number | null = null;
    const scoped = input.scoped_tag_id;
    if (scoped !== undefined && scoped !== null && scoped !== 0) {
      if (typeof scoped !== 'number' || !Number.isSafeInteger(scoped)) throw badRequest('scoped_tag_id must be an integer');
      if (scoped < 0) throw badRequest('scoped_tag_id must not be negative');
      if (!(await new TagRepository(this.ctx.db).find(scoped))) throw badRequest(`scoped tag ${scoped} not found`);
      scopedTagId = scoped;
    }

    const key = generateKey();
    const id = await this.repo.insert({
      name,
      key_hash: key.hash,
      key_prefix: key.prefix,
      role,
      scoped_tag_id: scopedTagId,
      created_at: keyStamp(this.ctx.clock.now()),
    });
    const row = await this.repo.find(id);
    return { key: key.plaintext, info: keyInfo(row!) };
  }

  async list(): Promise<KeyInfo[]> {
    return (await this.repo.list()).map(keyInfo);
  }

  async revoke(id: number): Promise<void> {
    if (!(await this.repo.revoke(id, keyStamp(this.ctx.clock.now())))) throw notFound('key not found or already revoked');
  }

  /**
   * Resolves the Authorization header to a principal. The key cache is exact (keys/cache.ts),
   * so a revocation is effective on the very next request; the row's last_used_at is updated first.
   */
  async authenticate(header: string | undefined): Promise<KeyPrincipal> {
    const m = /^bearer (\S+)$/i.exec(header ?? '');
    if (!m) throw unauthorized('authentication required');
    // The lookup is by the SHA-256 of what was presented: timing reveals nothing of a stored key.
    const hash = hashKey(m[1]);
    const cached = this.cache.get(hash);
    let row = cached.row;
    if (!row) {
      row = await this.repo.findActiveByHash(hash);
      if (row) this.cache.put(hash, row, cached.token);
    }
    if (!row || !isRole(row.role)) throw unauthorized('invalid or revoked API key');
    // Stamps have whole seconds: a key already stamped this second needs no write (every
    // upload of a busy client would otherwise add an UPDATE to its request). The stamp does not
    // empty the cache, so the cached row is given it here.
    const now = keyStamp(this.ctx.clock.now());
    if (row.last_used_at !== now) {
      await this.repo.touch(row.id, now);
      row.last_used_at = now;
    }
    const scope = row.scoped_tag_id !== null && row.scoped_tag_name !== null ? { tagId: row.scoped_tag_id, name: row.scoped_tag_name } : null;
    return { keyId: row.id, role: row.role, scope };
  }

  /** Cleanup step: revoked keys go 7 days after their revocation. */
  purgeRevoked(): Promise<number> {
    return this.repo.purgeRevoked(keyStamp(new Date(this.ctx.clock.now().getTime() - REVOKED_RETENTION_MS)));
  }

  /**
   * Optional bootstrap (CLIP_BOOTSTRAP_KEY=1, §6.6): on an empty key table, an unscoped admin key
   * is written to <data>/bootstrap_admin_key (mode 0600); only the path is logged.
   */
  async bootstrap(log: (msg: string) => void): Promise<void> {
    if ((await this.repo.count()) > 0) return;
    const { key } = await this.create({ name: 'bootstrap', role: 'admin' });
    const file = join(this.ctx.config.dataDir, 'bootstrap_admin_key');
    try {
      writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
      log(`bootstrap admin key written to ${file}; read it once, then delete the file`);
    } catch {
      log(`bootstrap admin key (shown once, the key file could not be written): ${key}`);
    }
  }
}
