// Mentions become links on save (companion §12.2): after a note, group or resource is created
// or updated (for notes also a text block), the `@[type:id:name]` markers of its description
// (and a note's text blocks) are linked to it, additively: removing a mention keeps the link.
// Links go through the mass-edit engine, so visibility, the audit log and plugins see them as
// any other link change; a mention of something missing or out of sight is skipped.
import type { ChangeEvent } from '../../core/events/bus.js';
import { mentionsIn, type Mention } from '../../core/html/markdown.js';
import { parseJson } from '../../core/db/values.js';
import type { Principal } from '../auth/principal.js';
import type { ContentEntity, ContentKind, LinkName } from '../common/content.js';
import type { ContentEdits } from '../massEdit/service.js';
import type { MentionRepository } from './repository.js';

/** Which link a mention of each type becomes, per mentioning entity. */
const LINK_FOR: Record<ContentEntity, Partial<Record<Mention['type'], LinkName>>> = {
  note: { tag: 'tags', group: 'groups', resource: 'resources' },
  group: { tag: 'tags', note: 'notes', resource: 'resources', group: 'relatedGroups' },
  resource: { tag: 'tags', note: 'notes', group: 'groups' },
};

export class MentionLinks {
  /** Entities being linked right now: the link edits' own update events must not recurse. */
  private readonly busy = new Set<string>();

  constructor(
    private readonly repo: MentionRepository,
    private readonly edits: ContentEdits,
    private readonly kinds: Record<ContentEntity, ContentKind>,
    private readonly ceiling: number,
  ) {}

  async onChange(event: ChangeEvent<Principal>): Promise<void> {
    if ((event.action !== 'create' && event.action !== 'update') || event.id === undefined) return;
    if (event.entityType === 'note_block') {
      // Block creations and content edits name their note; reorders and state changes do not.
      const after = event.after as { noteId?: unknown; type?: unknown } | undefined;
      if (after?.type === 'text' && typeof after.noteId === 'number') await this.link('note', after.noteId, event);
    } else if (event.entityType === 'note' || event.entityType === 'group' || event.entityType === 'resource') {
      await this.link(event.entityType, event.id, event);
    }
  }

  private async texts(entity: ContentEntity, id: number): Promise<string[]> {
    const own = await this.repo.description(this.kinds[entity].table, id);
    if (own === undefined) return [];
    if (entity !== 'note') return [own];
    const blocks = (await this.repo.textBlocks(id)).map((c) => String(parseJson<{ text?: unknown }>(c, {}).text ?? ''));
    return [own, ...blocks];
  }

  private async link(entity: ContentEntity, id: number, event: ChangeEvent<Principal>): Promise<void> {
    const key = `${entity}:${id}`;
    if (this.busy.has(key)) return;
    this.busy.add(key);
    try {
      const text = (await this.texts(entity, id)).join('\n');
      if (!text.includes('@[')) return; // the common case: nothing to link, no more reads
      const mentions = mentionsIn(text);
      const kind = this.kinds[entity];
      for (const [type, link] of Object.entries(LINK_FOR[entity]) as [Mention['type'], LinkName][]) {
        const spec = kind.links[link];
        const wanted = mentions.filter((m) => m.type === type && !(type === entity && m.id === id)).map((m) => m.id);
        if (!spec || wanted.length === 0) continue;
        const have = new Set(await this.repo.linked(spec, id));
        for (const other of wanted.filter((w) => !have.has(w))) {
          try {
            await this.edits.massEdit(kind, { principal: event.principal, origin: event.origin }, { selection: { target: 'ids', ids: [id] }, links: [{ link, verb: 'add', ids: [other] }], dryRun: false }, this.ceiling);
          } catch {
            // A mention of a deleted or invisible entity links nothing; the save stands.
          }
        }
      }
    } finally {
      this.busy.delete(key);
    }
  }
}
