// AutoDetectRules (companion §3.10): a resource category may claim uploads by content type and
// ranges over size and dimensions. Rules are validated when a category is saved; on upload the
// best match wins (priority, then specificity, then lowest id), else the Default category.
import { badRequest } from '../../core/http/errors.js';

interface Range {
  min?: number;
  max?: number;
}

export interface AutoDetectRules {
  contentTypes: string[];
  width?: Range;
  height?: Range;
  aspectRatio?: Range;
  fileSize?: Range;
  pixelCount?: Range;
  bytesPerPixel?: Range;
  priority: number;
}

const RANGES = ['width', 'height', 'aspectRatio', 'fileSize', 'pixelCount', 'bytesPerPixel'] as const;
const KEYS = new Set<string>(['contentTypes', 'priority', ...RANGES]);

/** Parses rules text; empty text means "no rules" (null). Throws a 400 naming the fault. */
export function parseAutoDetectRules(text: string | null | undefined): AutoDetectRules | null {
  if (!text || text.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw badRequest(`AutoDetectRules is not valid JSON: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest('AutoDetectRules must be a JSON object');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KEYS.has(k)) throw badRequest(`AutoDetectRules: unknown key "${k}"`);
  const types = o.contentTypes;
  if (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string')) {
    throw badRequest('AutoDetectRules: contentTypes must be a non-empty array of strings');
  }
  const rules: AutoDetectRules = { contentTypes: types as string[], priority: 0 };
  for (const key of RANGES) {
    if (o[key] === undefined) continue;
    const r = o[key] as Record<string, unknown>;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw badRequest(`AutoDetectRules: ${key} must be an object with min and/or max`);
    const extra = Object.keys(r).find((k) => k !== 'min' && k !== 'max');
    if (extra) throw badRequest(`AutoDetectRules: ${key} has an unknown key "${extra}"`);
    if (r.min === undefined && r.max === undefined) throw badRequest(`AutoDetectRules: ${key} needs min and/or max`);
    for (const bound of ['min', 'max'] as const) {
      if (r[bound] !== undefined && (typeof r[bound] !== 'number' || !Number.isFinite(r[bound]))) throw badRequest(`AutoDetectRules: ${key}.${bound} must be a number`);
    }
    rules[key] = { min: r.min as number | undefined, max: r.max as number | undefined };
  }
  if (o.priority !== undefined) {
    if (typeof o.priority !== 'number' || !Number.isInteger(o.priority)) throw badRequest('AutoDetectRules: priority must be an integer');
    rules.priority = o.priority;
  }
  return rules;
}

export interface Candidate {
  contentType: string;
  fileSize: number;
  width: number;
  height: number;
}

const inRange = (r: Range, v: number) => (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** The specificity of a match (1 + ranges checked), or null when the rules do not match. */
export function matchRules(rules: AutoDetectRules, c: Candidate): number | null {
  if (!rules.contentTypes.includes(c.contentType)) return null;
  let checked = 0;
  const check = (r: Range | undefined, v: number) => {
    if (!r) return true;
    checked++;
    return inRange(r, v);
  };
  if (!check(rules.fileSize, c.fileSize)) return null;
  if (c.width > 0 && c.height > 0) {
    const pixels = c.width * c.height;
    if (!check(rules.width, c.width)) return null;
    if (!check(rules.height, c.height)) return null;
    if (!check(rules.aspectRatio, c.width / c.height)) return null;
    if (!check(rules.pixelCount, pixels)) return null;
    if (!check(rules.bytesPerPixel, c.fileSize / pixels)) return null;
  }
  return 1 + checked;
}

/** Picks the winning category id among `categories`, or null (use Default). Bad rules are skipped. */
export function detectCategory(categories: { id: number; name: string; rules: string }[], c: Candidate, log: (m: string) => void = () => undefined): number | null {
  let best: { id: number; priority: number; specificity: number } | null = null;
  for (const cat of categories) {
    let rules: AutoDetectRules | null;
    try {
      rules = parseAutoDetectRules(cat.rules);
    } catch (e) {
      log(`resource category "${cat.name}" has unusable AutoDetectRules: ${(e as Error).message}`);
      continue;
    }
    if (!rules) continue;
    const specificity = matchRules(rules, c);
    if (specificity === null) continue;
    const better =
      !best ||
      rules.priority > best.priority ||
      (rules.priority === best.priority && (specificity > best.specificity || (specificity === best.specificity && cat.id < best.id)));
    if (better) best = { id: cat.id, priority: rules.priority, specificity };
  }
  return best?.id ?? null;
}
