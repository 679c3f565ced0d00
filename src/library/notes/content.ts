// Notes as a content kind for edit-meta, bulk edits and mass edit: their links, their note
// type's MetaSchema and the list filters for Target=filter.
import { makeBag, readParams } from '../../core/http/params.js';
import type { Tx } from '../../core/db/repository.js';
import type { ContentKind } from '../common/content.js';
import type { Database } from '../schema/database.js';
import { NoteListInput } from './filters.js';
import type { NoteService } from './service.js';

export function noteContent(notes: NoteService): ContentKind {
  return {
    entity: 'note',
    table: 'notes',
    plural: 'notes',
    carrier: { table: 'note_types', column: 'note_type_id', label: 'note type' },
    links: {
      tags: { table: 'note_tags', self: 'note_id', other: 'tag_id', target: 'tags' },
      groups: { table: 'groups_related_notes', self: 'note_id', other: 'group_id', target: 'groups' },
      resources: { table: 'resource_notes', self: 'note_id', other: 'resource_id', target: 'resources' },
    },
    // Mass edit runs the filter inside its own transaction.
    filterIds: (tx, vis, query, limit) => notes.matchingIds(vis, readParams(NoteListInput, makeBag(query)), limit, tx as Tx<Database>),
  };
}
