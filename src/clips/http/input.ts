// Strict request readers for the clip API (companion §3.4): path ids must be plain digits, a
// JSON field of the wrong type is a 400, unknown fields are ignored. Messages are the spec's.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../core/http/errors.js';

export type Json = Record<string, unknown>;

/** A path id: ^[0-9]+$ within the safe integer range, else 400 "invalid <thing> id". */
export function pathId(req: FastifyRequest, thing: string, param = 'id'): number {
  const raw = (req.params as Record<string, string>)[param];
  const n = /^[0-9]+$/.test(raw ?? '') ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`invalid ${thing} id`);
  return n;
}

export function pathText(req: FastifyRequest, param: string): string {
  return (req.params as Record<string, string>)[param] ?? '';
}

/** The JSON body as an object; no body reads as {}. */
export function objectBody(req: FastifyRequest): Json {
  const body = req.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be a JSON object');
  return body as Json;
}

export function optString(body: Json, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${field} must be a string`);
  return v;
}

export function optInt(body: Json, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest(`${field} must be an integer`);
  return v;
}

export function optBool(body: Json, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(`${field} must be a boolean`);
  return v;
}

/** Every value of a query parameter (repeated keys arrive as arrays). */
export function queryValues(req: FastifyRequest, name: string): string[] {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** The last value of a query parameter, or undefined. */
export function queryValue(req: FastifyRequest, name: string): string | undefined {
  const all = queryValues(req, name);
  return all.length ? all[all.length - 1] : undefined;
}

function parseId(text: string): number | null {
  const t = text.trim();
  if (!/^[0-9]+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** Integer ids from repeated and/or comma-separated values; `message` on any bad one. */
export function queryIds(req: FastifyRequest, name: string, message: string, commas: boolean): number[] {
  const out: number[] = [];
  for (const value of queryValues(req, name)) {
    for (const part of commas ? value.split(',') : [value]) {
      if (commas && part.trim() === '') continue;
      const id = parseId(part);
      if (id === null) throw badRequest(message);
      out.push(id);
    }
  }
  return out;
}

export interface Page {
  limit: number;
  offset: number;
}

/** limit (default 50, clamped to 200, < 1 or non-integer → 400) and offset (≥ 0). */
export function readPage(req: FastifyRequest): Page {
  const rawLimit = queryValue(req, 'limit');
  const rawOffset = queryValue(req, 'offset');
  let limit = 50;
  if (rawLimit !== undefined) {
    const n = /^\s*-?[0-9]+\s*$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw badRequest('invalid limit');
    limit = Math.min(n, 200);
  }
  let offset = 0;
  if (rawOffset !== undefined) {
    const n = parseId(rawOffset);
    if (n === null) throw badRequest('invalid offset');
    offset = n;
  }
  return { limit, offset };
}

/** archived=true|false; absent → undefined; anything else 400. */
export function readArchived(req: FastifyRequest): boolean | undefined {
  const v = queryValue(req, 'archived');
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest('invalid archived value (expected true or false)');
}

/** The clip contract's answer to a multipart body that cannot be parsed (companion §3.4). */
export const unreadableMultipart = () => badRequest('failed to read multipart data');
