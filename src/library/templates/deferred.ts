// Deferred shortcodes (companion §5.3): [lazy] and [details] bodies travel to the browser as
// AES-256-GCM sealed tokens binding the template body to the entity; POST
// /v1/shortcodes/deferred opens the token, reloads the entity under the caller's scope and
// renders the body. The key comes from TEMPLATE_SIGNING_KEY, or is random per process.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Entity } from '../mrql/fields.js';

export interface DeferredPayload {
  body: string;
  type: Entity;
  id: number;
}

export class Sealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = secret ? createHash('sha256').update(secret).digest() : randomBytes(32);
  }

  seal(payload: DeferredPayload): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The payload, or null when the token was not sealed with this key or was altered. */
  open(token: string): DeferredPayload | null {
    try {
      const raw = Buffer.from(token, 'base64url');
      if (raw.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      const p = JSON.parse(text) as DeferredPayload;
      if (typeof p.body !== 'string' || !['resource', 'note', 'group'].includes(p.type) || !Number.isInteger(p.id)) return null;
      return p;
    } catch {
      return null;
    }
  }
}
