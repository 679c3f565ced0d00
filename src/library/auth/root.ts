// Ensures an enabled administrator exists and returns the oldest one, the implicit actor while
// authentication is off (companion §10.2).
import { randomBytes, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/bcrypt';
import type { LibraryDb } from '../schema/database.js';
import { nowIso } from '../../core/db/values.js';
import type { Principal } from './principal.js';

async function oldestAdmin(db: LibraryDb) {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('role', '=', 'admin')
    .where('disabled', '=', false as never)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

async function freeRootName(db: LibraryDb): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'root' : `root${n}`;
    const taken = await db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst();
    if (!taken) return name;
  }
}

export async function ensureRootAdmin(db: LibraryDb, log: (msg: string) => void): Promise<Principal> {
  let admin = await oldestAdmin(db);
  if (!admin) {
    const username = await freeRootName(db);
    const now = nowIso();
    await db
      .insertInto('users')
      .values({
        created_at: now,
        updated_at: now,
        guid: randomUUID(),
        username,
        display_name: 'Administrator',
        password_hash: await hash(randomBytes(24).toString('base64url'), 10),
        role: 'admin',
        disabled: false,
        password_auto_generated: true,
      })
      .execute();
    log(`created administrator "${username}" with a random password; set known credentials with -create-admin-user and -create-admin-password once accounts are enabled`);
    admin = await oldestAdmin(db);
  }
  if (!admin) throw new Error('could not create the root administrator');
  return { userId: admin.id, username: admin.username, role: 'admin', scopeGroupId: null, superUser: true };
}
