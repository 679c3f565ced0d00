// The password policy and hashing (companion §10.3): at least 8 code points, at most 72 UTF-8
// bytes (bcrypt ignores whatever lies beyond), bcrypt with cost 10. Stored hashes are never
// re-validated against the policy at login.
import { hash, verify } from '@node-rs/bcrypt';

const COST = 10;
const MIN_CODE_POINTS = 8;
const MAX_BYTES = 72;

/** The policy's complaint about a password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_CODE_POINTS) return `password must be at least ${MIN_CODE_POINTS} characters`;
  if (Buffer.byteLength(password, 'utf8') > MAX_BYTES) return `password must be at most ${MAX_BYTES} bytes`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, COST);
}

/** False for a wrong password and for a hash that is not a bcrypt hash at all. */
export async function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  if (!passwordHash.startsWith('$2')) return false;
  return verify(password, passwordHash).catch(() => false);
}

// Compared against when the username does not exist, so both failures take as long.
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('not-a-real-password', COST);
  await verifyPassword(password, await dummyHash);
}
