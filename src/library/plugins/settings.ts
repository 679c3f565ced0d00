// Saving and reading plugin settings (library-plugins.md §6.2–6.4).
import type { SettingDefinition } from './manifest.js';

export interface SettingError {
  field: string;
  message: string;
}

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** Every failing field, in declaration order; after a required failure the field's other checks are skipped. */
export function validateSettings(defs: readonly SettingDefinition[], values: Record<string, unknown>): SettingError[] {
  const errors: SettingError[] = [];
  for (const def of defs) {
    const v = values[def.name];
    if (empty(v)) {
      if (def.required) errors.push({ field: def.name, message: `${def.label} is required` });
      continue;
    }
    switch (def.type) {
      case 'string':
      case 'password':
        break;
      case 'boolean':
        if (typeof v !== 'boolean') errors.push({ field: def.name, message: `${def.label} must be a boolean` });
        break;
      case 'number':
        if (typeof v !== 'number') errors.push({ field: def.name, message: `${def.label} must be a number` });
        break;
      case 'select':
        if (typeof v !== 'string') errors.push({ field: def.name, message: `${def.label} must be a string` });
        else if (!(def.options ?? []).includes(v)) errors.push({ field: def.name, message: `${def.label} must be one of the available options` });
        break;
      default:
        errors.push({ field: def.name, message: `${def.label} has unknown setting type "${def.type}"` });
    }
  }
  return errors;
}

/** Only declared keys are kept (§6.3 step 3). */
export function declaredOnly(defs: readonly SettingDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) if (Object.prototype.hasOwnProperty.call(values, def.name)) out[def.name] = values[def.name];
  return out;
}

/** Stored values plus the declared default of every absent setting (§6.4). */
export function withDefaults(defs: readonly SettingDefinition[], stored: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  for (const def of defs) if (out[def.name] === undefined && def.default !== undefined) out[def.name] = def.default;
  return out;
}

/** Labels of required settings still missing after defaults (§8.2 step 3). */
export function missingRequired(defs: readonly SettingDefinition[], values: Record<string, unknown>): string[] {
  return defs.filter((d) => d.required && empty(values[d.name])).map((d) => d.label);
}

/** What mah.get_setting hands Lua: scalars as they are, objects and arrays as text (§6.4). */
export function settingForLua(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
