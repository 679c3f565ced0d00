// Entity name rules (companion §12.1): trimmed, non-empty, at most 1000 bytes, no control
// characters other than tab, no bidirectional override or isolate characters.
import { badRequest } from '../../core/http/errors.js';

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export function validName(raw: string | undefined, field = 'Name'): string {
  const name = (raw ?? '').trim();
  if (name === '') throw badRequest(`${field} must not be empty`);
  if (Buffer.byteLength(name, 'utf8') > 1000) throw badRequest(`${field} must be at most 1000 bytes`);
  if (FORBIDDEN.test(name)) throw badRequest(`${field} must not contain control or bidirectional override characters`);
  return name;
}

/** A JSON object given as text (Meta, SectionConfig); empty text means {} (companion §4.1). */
export function jsonObjectText(raw: string | undefined, field: string): string {
  const text = (raw ?? '').trim();
  if (text === '') return '{}';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest(`${field} is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${field} must be a JSON object`);
  for (const key of Object.keys(value)) {
    if (key.trim() === '') throw badRequest(`${field} keys must not be empty`);
  }
  return JSON.stringify(value);
}
