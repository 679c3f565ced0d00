// Reads the JSON body of POST and PUT /watch (companion §7.4): every field optional in the
// reader, types strict (a wrong JSON type is a 400), values checked here when they need no
// database; the service adds the rest (path on disk, tag, duplicates).
import { isAbsolute, resolve } from 'node:path';
import { badRequest } from '../../core/http/errors.js';
import type { Json } from '../http/input.js';
import { FILTER_MODES, PRESETS, type FilterMode } from './filters.js';
import { compileFilterRegex } from './regex.js';

export interface FolderInput {
  path?: string;
  filter_mode?: FilterMode;
  filter_presets?: string[];
  filter_regex?: string;
  process_existing?: boolean;
  auto_archive?: boolean;
  /** null clears (null or 0 in the body). */
  auto_tag_id?: number | null;
}

const has = (body: Json, key: string) => Object.prototype.hasOwnProperty.call(body, key);

function bool(body: Json, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(`${key} must be a boolean`);
  return v;
}

/** An absolute path with "." and ".." segments and trailing separators resolved. */
export function normalisePath(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') throw badRequest('path is required');
  if (typeof raw !== 'string') throw badRequest('path must be a string');
  const path = raw.trim();
  if (path === '') throw badRequest('path is required');
  if (path.includes('\0')) throw badRequest('path must not contain NUL');
  if (!isAbsolute(path)) throw badRequest(`path must be absolute: ${path}`);
  return resolve(path);
}

export function readFolderInput(body: Json): FolderInput {
  const input: FolderInput = {};
  if (has(body, 'path')) input.path = normalisePath(body.path);

  const mode = body.filter_mode;
  if (mode !== undefined && mode !== null) {
    if (typeof mode !== 'string' || !(FILTER_MODES as readonly string[]).includes(mode)) {
      throw badRequest(`invalid filter_mode: ${String(mode)} (must be all, presets, or custom)`);
    }
    input.filter_mode = mode as FilterMode;
  }

  const presets = body.filter_presets;
  if (presets !== undefined && presets !== null) {
    if (!Array.isArray(presets) || !presets.every((p) => typeof p === 'string')) throw badRequest('filter_presets must be an array of strings');
    const unknown = presets.find((p) => !Object.hasOwn(PRESETS, p as string));
    if (unknown !== undefined) throw badRequest(`invalid filter preset: ${String(unknown)} (must be images, documents, or videos)`);
    input.filter_presets = [...new Set(presets as string[])];
  }

  const regex = body.filter_regex;
  if (regex !== undefined && regex !== null) {
    if (typeof regex !== 'string') throw badRequest('filter_regex must be a string');
    if (regex !== '') compileFilterRegex(regex);
    input.filter_regex = regex;
  }

  input.process_existing = bool(body, 'process_existing');
  input.auto_archive = bool(body, 'auto_archive');

  if (has(body, 'auto_tag_id')) {
    const tag = body.auto_tag_id;
    if (tag === null || tag === 0) input.auto_tag_id = null;
    else if (typeof tag !== 'number' || !Number.isSafeInteger(tag) || tag < 0) throw badRequest('auto_tag_id must be a positive integer or null');
    else input.auto_tag_id = tag;
  }
  return input;
}
