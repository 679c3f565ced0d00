// Validating the params of an action run (library-plugins.md §17.5): hidden params are stripped
// once, then each visible param is checked against its declaration. entity_ref ids are shape-
// checked here; whether they exist and match their filters needs the database (action-run.ts).
import type { ActionDef, ActionParam } from './actions.js';

export interface FieldError {
  field: string;
  message: string;
}

const MAX_ID = Number.MAX_SAFE_INTEGER;

function matches(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) return expected.some((e) => matches(e, actual));
  if (actual === null || typeof actual === 'object') return false;
  if (typeof expected === 'number') return typeof actual === 'number' && actual === expected;
  return expected === actual;
}

function visible(p: ActionParam, params: Record<string, unknown>): boolean {
  if (!p.show_when) return true;
  return Object.entries(p.show_when).every(([ctrl, expected]) => ctrl in params && matches(expected, params[ctrl]));
}

/** The submitted params without the values of hidden params. */
export function stripHidden(action: ActionDef, params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  for (const p of action.params) if (!visible(p, params)) delete out[p.name];
  return out;
}

const empty = (v: unknown) => v === undefined || v === null || v === '';
const isId = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_ID;
const count = (n: number) => (Number.isInteger(n) ? String(n) : String(n));

function checkRef(p: ActionParam, v: unknown): string | undefined {
  if (!p.multi) {
    if (typeof v !== 'number') return `${p.label}: expected single ID number`;
    return isId(v) ? undefined : `${p.label}: ID must be a positive integer`;
  }
  if (!Array.isArray(v)) return `${p.label}: expected array of IDs`;
  if (p.required && v.length === 0) return `${p.label} is required`;
  if (p.min !== undefined && v.length < p.min) return `${p.label}: must have at least ${count(p.min)} entries`;
  if (p.max !== undefined && p.max > 0 && v.length > p.max) return `${p.label}: must have at most ${count(p.max)} entries`;
  if (v.some((x) => !isId(x))) return `${p.label}: each ID must be a positive integer`;
  return undefined;
}

function checkOne(p: ActionParam, v: unknown): string | undefined {
  switch (p.type) {
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `${p.label} must be true or false`;
    case 'text':
    case 'textarea':
    case 'hidden':
      return typeof v === 'string' ? undefined : `${p.label} must be a string`;
    case 'select':
      return typeof v === 'string' && (p.options ?? []).includes(v) ? undefined : `${p.label} must be one of the available options`;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `${p.label} must be a number`;
      if (p.min !== undefined && v < p.min) return `${p.label} must be at least ${p.min}`;
      if (p.max !== undefined && v > p.max) return `${p.label} must be at most ${p.max}`;
      return undefined;
    case 'entity_ref':
      return checkRef(p, v);
    default:
      return undefined;
  }
}

/** Checks the (already stripped) params; errors in declaration order. */
export function validateParams(action: ActionDef, params: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const p of action.params) {
    if (p.type === 'info' || !visible(p, params)) continue;
    const v = params[p.name];
    const isEmptyList = p.type === 'entity_ref' && p.multi && Array.isArray(v) && v.length === 0;
    if (p.required && (empty(v) || isEmptyList)) {
      errors.push({ field: p.name, message: `${p.label} is required` });
      continue;
    }
    if (empty(v)) continue;
    const message = checkOne(p, v);
    if (message) errors.push({ field: p.name, message });
  }
  return errors;
}

/** The entity_ref params that carry ids, with those ids (after validation passed). */
export function entityRefs(action: ActionDef, params: Record<string, unknown>): { param: ActionParam; ids: number[] }[] {
  const out: { param: ActionParam; ids: number[] }[] = [];
  for (const p of action.params) {
    if (p.type !== 'entity_ref' || !p.entity) continue;
    const v = params[p.name];
    if (empty(v)) continue;
    const ids = Array.isArray(v) ? (v as number[]) : [v as number];
    if (ids.length) out.push({ param: p, ids });
  }
  return out;
}
