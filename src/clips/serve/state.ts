// What a tag server's handlers share (companion §9): its state, its dependencies, the serve-key
// cookie and the small request helpers of the site and the /_api routes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../core/http/errors.js';
import type { KeyedLock } from '../../core/storage/keyed-lock.js';
import type { ClipService } from '../clips/service.js';
import type { ClipTempFiles } from '../clipboard/temp-files.js';
import type { ClipContext } from '../context.js';
import type { TagRepository, TagRow } from '../tags/repository.js';
import type { TagService } from '../tags/service.js';
import type { ServedClip, ServeRepository } from './repository.js';

export type ApiAccess = 'none' | 'read' | 'readwrite';
export const API_ACCESS: readonly ApiAccess[] = ['none', 'read', 'readwrite'];

export const COOKIE = '_svc_serve_key';
/** JSON documents and request bodies of /_api are at most 10 MiB (companion §9.4). */
export const MAX_API_BYTES = 10 * 1024 * 1024;

/** The state of one running tag server that its handlers read. */
export interface SiteState {
  tagId: number;
  apiAccess: ApiAccess;
  /** 64 lowercase hex characters, fresh at every start. */
  key: string;
  requestCount: number;
}

export interface SiteDeps {
  ctx: ClipContext;
  clips: ClipService;
  tags: TagService;
  tagRepo: TagRepository;
  repo: ServeRepository;
  tempFiles: ClipTempFiles;
  /** Serialises JSON writes per clip, across every tag server. */
  writeLock: KeyedLock;
}

export const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept',
};
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('invalid path encoding');
  }
}

export const lastSegment = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** Compares the cookie with the key in constant time (digests have equal lengths). */
export function cookieMatches(req: FastifyRequest, key: string): boolean {
  const header = req.headers.cookie ?? '';
  let sent: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) sent = part.slice(eq + 1).trim();
  }
  if (sent === undefined) return false;
  const a = createHash('sha256').update(sent).digest();
  const b = createHash('sha256').update(key).digest();
  return timingSafeEqual(a, b);
}

/** The served tag and the files of a level, as both the site and /_api see them. */
export interface Levels {
  servedTag(): Promise<TagRow>;
  files(tag: TagRow): Promise<{ name: string; clip: ServedClip }[]>;
}
