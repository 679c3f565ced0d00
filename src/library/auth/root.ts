// Ensures an enabled administrator exists and returns the oldest one, the implicit actor while
// authentication is off (companion §10.2).
import { randomBytes, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/bcrypt';
import { nowIso } from '../../core/db/values.js';
import type { Principal } from './principal.js';
import type { RootAdminRepository } from './root.repository.js';

async function freeRootName(users: RootAdminRepository): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'root' : `root${n}`;
    if (!(await users.usernameTaken(name))) return name;
  }
}

export async function ensureRootAdmin(users: RootAdminRepository, log: (msg: string) => void): Promise<Principal> {
  let admin = await users.oldestAdmin();
  if (!admin) {
    const username = await freeRootName(users);
    const now = nowIso();
    await users.insert({
      created_at: now,
      updated_at: now,
      guid: randomUUID(),
      username,
      display_name: 'Administrator',
      password_hash: await hash(randomBytes(24).toString('base64url'), 10),
      role: 'admin',
      disabled: false,
      password_auto_generated: true,
    });
    log(`created administrator "${username}" with a random password; set known credentials with -create-admin-user and -create-admin-password once accounts are enabled`);
    admin = await users.oldestAdmin();
  }
  if (!admin) throw new Error('could not create the root administrator');
  return { userId: admin.id, username: admin.username, role: 'admin', scopeGroupId: null, superUser: true };
}
