// What a plugin handler learns about the HTTP request (library-plugins.md §20.1, §21.2, §26.3):
// query and form fields as tables (repeated → arrays), headers without credentials, and the
// principal. csrf_token never reaches a plugin.
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';

const HIDDEN_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-csrf-token']);

export type FieldTable = Record<string, string | string[]>;

export function fieldsOf(params: URLSearchParams): FieldTable {
  const out: FieldTable = {};
  for (const [k, v] of params) {
    if (k === 'csrf_token') continue;
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export function queryOf(req: FastifyRequest): FieldTable {
  const q = req.url.indexOf('?');
  return fieldsOf(new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1)));
}

export function headersOf(req: FastifyRequest): FieldTable {
  const out: FieldTable = {};
  const raw = req.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    if (HIDDEN_HEADERS.has(k)) continue;
    const prev = out[k];
    if (prev === undefined) out[k] = raw[i + 1];
    else out[k] = Array.isArray(prev) ? [...prev, raw[i + 1]] : [prev, raw[i + 1]];
  }
  return out;
}

export function principalTable(p: Principal): Record<string, unknown> {
  const t: Record<string, unknown> = { userId: p.userId, username: p.username, role: p.role, isAdmin: p.superUser || p.role === 'admin', superUser: p.superUser };
  if (p.scopeGroupId !== null) t.scopeGroupId = p.scopeGroupId;
  return t;
}
