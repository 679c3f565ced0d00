// Note description ↔ first text block (companion §12.3): the description mirrors the text of the
// note's first text block (lowest position, then lowest id); saving a new description writes it
// into that block. Callers pass the block repository bound to their transaction.
import { nowIso, parseJson } from '../../core/db/values.js';
import type { JsonObject } from './records.js';
import type { BlockRepository } from './repository.js';

function textOf(content: string): string {
  const text = parseJson<JsonObject>(content, {}).text;
  return typeof text === 'string' ? text : '';
}

/**
 * Recomputes the description after a block change. A note that never had text blocks keeps its
 * description; one whose last text block went away (`textRemoved`) ends with an empty one.
 */
export async function mirrorDescription(blocks: BlockRepository, noteId: number, textRemoved = false): Promise<void> {
  const first = await blocks.firstText(noteId);
  if (!first && !textRemoved) return;
  await blocks.setNoteDescription(noteId, first ? textOf(first.content) : '');
}

/** Writes a newly saved description into the first text block, when there is one. */
export async function writeDescriptionToFirstTextBlock(blocks: BlockRepository, noteId: number, description: string): Promise<void> {
  const first = await blocks.firstText(noteId);
  if (!first) return;
  const content = { ...parseJson<JsonObject>(first.content, {}), text: description };
  await blocks.update(first.id, { content: JSON.stringify(content), updated_at: nowIso() });
}
