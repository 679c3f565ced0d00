// Key material (companion §6.1): "svc_" + 48 lowercase hex characters from 24 random bytes
// (192 bits). Only the SHA-256 of the whole key is stored; the first 8 characters identify it.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'svc_';

export interface NewKey {
  plaintext: string;
  hash: string;
  prefix: string;
}

export function hashKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function generateKey(): NewKey {
  const plaintext = `${KEY_PREFIX}${randomBytes(24).toString('hex')}`;
  return { plaintext, hash: hashKey(plaintext), prefix: plaintext.slice(0, 8) };
}
