// The note type's CustomAvatar on note cards, rendered with one shared render state for the
// whole page (the slot text comes with each listed note's type, so no query per card).
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import type { Principal } from '../auth/principal.js';
import type { Shortcodes } from '../templates/index.js';

interface Card {
  ID: number;
  NoteType?: Record<string, unknown> | null;
}

export async function cardAvatars(shortcodes: Shortcodes, principal: Principal, notes: Card[]): Promise<Map<number, SafeHtml>> {
  const out = new Map<number, SafeHtml>();
  const state = shortcodes.pageState(principal);
  for (const n of notes) {
    const text = String(n.NoteType?.CustomAvatar ?? '');
    if (text.trim() === '') continue;
    // The card's entity carries its type by name only, not the type's template texts.
    const entity = { ...n, NoteType: n.NoteType ? { ID: n.NoteType.ID, Name: n.NoteType.Name } : null } as Record<string, unknown>;
    const html = await shortcodes.render(text, { type: 'note', entity }, state);
    out.set(
      n.ID,
      <span x-data={`{ entity: ${JSON.stringify(entity)} }`} style="display:contents">
        {raw(html)}
      </span>,
    );
  }
  return out;
}

