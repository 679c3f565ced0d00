// Random credentials and their stored form (companion §10.4–10.6): 32 random bytes as URL-safe
// base64 without padding (43 characters); only the SHA-256 hex of a session or API token is
// stored. Secrets are compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Constant-time equality of two strings of any length (both are hashed to equal length first). */
export function sameSecret(a: string, b: string): boolean {
  const x = createHash('sha256').update(a, 'utf8').digest();
  const y = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}
