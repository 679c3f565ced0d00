// MetaSchema (companion §4.3): compiling a carrier's JSON Schema on save, and validating an
// entity's resulting meta against it on write. Compiled validators are cached by schema text.
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { badRequest } from '../../core/http/errors.js';

const options = { allErrors: true, strict: false } as const;
const engines = { draft2020: new Ajv2020(options), draft2019: new Ajv2019(options), draft7: new Ajv(options) };
const cache = new Map<string, ValidateFunction>();

/** Picks the validator for the declared draft; drafts 4 and 6 are read as draft 7. */
function engineFor(schema: Record<string, unknown>): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2019-09')) return engines.draft2019;
  if (/draft-0[467]/.test(declared)) {
    delete schema.$schema;
    return engines.draft7;
  }
  if (declared !== '' && !declared.includes('2020-12')) delete schema.$schema;
  return engines.draft2020;
}

/** Compiles schema text or throws 400 with the reference's messages. Empty text means none. */
export function compileMetaSchema(text: string): ValidateFunction | null {
  if (text.trim() === '') return null;
  const cached = cache.get(text);
  if (cached) return cached;
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    throw badRequest(`meta JSON schema is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    if (typeof schema !== 'boolean') throw badRequest('meta JSON schema is not a valid JSON Schema: it must be an object or a boolean');
  }
  try {
    const copy = typeof schema === 'object' ? structuredClone(schema as Record<string, unknown>) : schema;
    const engine = typeof copy === 'object' && copy !== null ? engineFor(copy as Record<string, unknown>) : engines.draft2020;
    const validate = engine.compile(copy as object);
    cache.set(text, validate);
    return validate;
  } catch (e) {
    throw badRequest(`meta JSON schema is not a valid JSON Schema: ${(e as Error).message}`);
  }
}

/** Throws 400 {error, errors} when `meta` does not satisfy the carrier's schema. */
export function checkMeta(schemaText: string, meta: unknown, carrier: string, carrierName: string): void {
  const validate = compileMetaSchema(schemaText);
  if (!validate || validate(meta)) return;
  throw badRequest(`meta does not match the schema of ${carrier} "${carrierName}"`, {
    errors: (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'invalid' })),
  });
}
