// Rules shared by the group, note and resource phases.
import type { Tx } from '../../../core/db/repository.js';
import { checkCarrierMeta, type CarrierRef } from '../../common/content.js';
import type { Database } from '../../schema/database.js';
import type { ApplyRun } from './run.js';

/** Merge policy for meta: the existing values win, keys only the archive has are added. */
export function mergedMeta(existing: string, incoming: Record<string, unknown>): Record<string, unknown> {
  let current: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(existing);
    if (v && typeof v === 'object' && !Array.isArray(v)) current = v as Record<string, unknown>;
  } catch {
    /* unreadable stored meta: the archive's fills it */
  }
  return { ...incoming, ...current };
}

/** Imported meta is kept even when the carrier's MetaSchema disagrees; the plan's user hears of it. */
export async function checkImportedMeta(run: ApplyRun, tx: Tx<Database>, carrier: CarrierRef, carrierId: number | null, meta: Record<string, unknown>, what: string): Promise<void> {
  try {
    await checkCarrierMeta(tx, carrier, carrierId, meta);
  } catch (e) {
    run.warn(`${what}: meta does not match the ${carrier.label}'s MetaSchema (${(e as Error).message}); imported as it was`);
  }
}

/** Lenient URL check like the group form's: unparsable text is dropped. */
export function importedUrl(run: ApplyRun, raw: string | null, what: string): string | null {
  const text = (raw ?? '').trim();
  if (text === '') return null;
  try {
    new URL(text, 'http://relative.invalid');
    return text;
  } catch {
    run.warn(`${what}: URL "${text.slice(0, 80)}" is not valid and was dropped`);
    return null;
  }
}
