// Tag names are '/'-separated paths (companion §4.1). Every relation between tags is a pure
// string operation on names, exact and case-sensitive.
import { badRequest } from '../../core/http/errors.js';

export const MAX_TAG_NAME = 50;

/** A tag as the subtree rules need it. */
export interface TagRef {
  id: number;
  name: string;
}

/** Trims and validates a tag name; throws 400 with the reason. */
export function validTagName(raw: unknown): string {
  if (raw === undefined || raw === null) throw badRequest('tag name cannot be empty');
  if (typeof raw !== 'string') throw badRequest('name must be a string');
  const name = raw.trim();
  if (name === '') throw badRequest('tag name cannot be empty');
  if ([...name].length > MAX_TAG_NAME) throw badRequest(`tag name too long (max ${MAX_TAG_NAME} characters)`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('tag name contains control characters');
  for (const segment of name.split('/')) {
    const s = segment.trim();
    if (s === '') throw badRequest('tag name contains empty path segment');
    if (s === '_api') throw badRequest("tag name contains reserved segment '_api'");
    if (s === '.' || s === '..') throw badRequest("tag name contains a '.' or '..' segment");
  }
  return name;
}

export function parentOf(name: string): string | null {
  const i = name.lastIndexOf('/');
  return i < 0 ? null : name.slice(0, i);
}

/** Proper prefixes, root first: a/b/c → a, a/b. */
export function ancestorsOf(name: string): string[] {
  const parts = name.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

export function rootOf(name: string): string {
  const i = name.indexOf('/');
  return i < 0 ? name : name.slice(0, i);
}

export function isDescendant(name: string, of: string): boolean {
  return name.startsWith(`${of}/`);
}

export function inSubtree(name: string, of: string): boolean {
  return name === of || isDescendant(name, of);
}

/**
 * Half-open range [low, high) of names that are descendants of `name` in binary order: every
 * name starting with "name/" sorts at or after "name/" and before "name0" ('0' follows '/'),
 * so the unique index on tags.name answers subtree queries.
 */
export function descendantRange(name: string): [string, string] {
  return [`${name}/`, `${name}0`];
}
