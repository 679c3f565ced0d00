// /v1/notes, /v1/note… (contract: Notes). Edit meta and mass edit come from the shared engine.
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { badRequest } from '../../core/http/errors.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, seenBy, type LibraryRoutes } from '../http/routes.js';
import { namedTimeline, registerTimeline } from '../timelines/routes.js';
import type { Library } from '../context.js';
import { noteContent } from './content.js';
import { registerBulkEdits } from '../massEdit/bulk.js';
import { registerMassEdit } from '../massEdit/routes.js';
import { registerEditMeta } from '../meta/editMeta.js';
import { NoteListInput } from './filters.js';
import type { NoteService } from './service.js';

const list = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));

export const NoteWriteInput = Type.Object({
  ID: Type.Optional(Type.Integer({ description: 'update this note (partial update)' })),
  Name: Type.Optional(Type.String({ description: 'required on create' })),
  Description: Type.Optional(Type.String({ description: 'an explicit empty value clears' })),
  OwnerId: Type.Optional(Type.Integer({ description: 'owner group; 0 clears' })),
  NoteTypeId: Type.Optional(Type.Integer({ description: 'note type; 0 clears' })),
  Groups: list('related group ids; absent keeps, an explicit empty list clears'),
  Tags: list('tag ids; absent keeps, an explicit empty list clears'),
  Resources: list('attached resource ids; absent keeps, an explicit empty list clears'),
  Meta: Type.Optional(Type.String({ description: 'JSON object' })),
  StartDate: Type.Optional(Type.String({ description: 'YYYY-MM-DDTHH:MM (UTC); empty clears' })),
  EndDate: Type.Optional(Type.String({ description: 'YYYY-MM-DDTHH:MM (UTC); empty clears' })),
});


export function registerNoteRoutes(routes: LibraryRoutes, lib: Library, notes: NoteService): void {
  routes.add({
    method: 'GET',
    path: '/v1/notes',
    tag: 'notes',
    summary: 'List notes (preloads Tags and NoteType)',
    needs: 'read',
    input: NoteListInput,
    handler: async ({ req, input, reply }) => {
      const { rows, page, perPage } = await notes.list(seenBy(req), input);
      return sendList(reply, rows, page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/note',
    tag: 'notes',
    summary: 'One note with its tags, groups, resources, owner and note type',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ req, input }) => notes.read(seenBy(req), input.id),
  });

  routes.add({
    method: 'POST',
    path: '/v1/note',
    tag: 'notes',
    summary: 'Create a note, or update it partially when ID is given',
    needs: 'write',
    input: NoteWriteInput,
    handler: async ({ req, reply, input }) => {
      const actor = actorOf(req);
      const note = input.ID ? await notes.update(actor, input.ID, input) : await notes.create(actor, input);
      return sendWrite(req, reply, note, `/note?id=${note.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/note/delete',
    tag: 'notes',
    summary: 'Delete a note with its blocks, links and share token',
    needs: 'write',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await notes.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/notes');
    },
  });

  registerInlineEdits(routes, notes.named, { base: '/v1/note', page: '/note', needs: 'write', tag: 'notes', description: false });
  routes.add({
    method: 'POST',
    path: '/v1/note/editDescription',
    tag: 'notes',
    summary: 'Inline edit of the note description (also rewrites the first text block)',
    needs: 'write',
    input: Type.Object({ id: Type.Integer(), Description: Type.Optional(Type.String()), value: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      const value = input.Description ?? input.value;
      if (value === undefined) throw badRequest('Description is required');
      await notes.editDescription(actorOf(req), input.id, value);
      return sendWrite(req, reply, { ok: true, id: input.id }, `/note?id=${input.id}`);
    },
  });

  const kind = noteContent(notes);
  registerBulkEdits(routes, lib, kind, { base: '/v1/notes', page: '/notes', ops: ['addTags', 'removeTags', 'addGroups', 'addMeta'] });
  registerMassEdit(routes, lib, kind, { path: '/v1/notes/massEdit', page: '/notes' });
  registerEditMeta(routes, lib, kind, { path: '/v1/note/editMeta', page: '/note' });

  routes.add({
    method: 'POST',
    path: '/v1/notes/delete',
    tag: 'notes',
    summary: 'Delete several notes',
    needs: 'write',
    input: Type.Object({ ID: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await notes.bulkDelete(actorOf(req), input.ID);
      return sendWrite(req, reply, { ok: true }, '/notes');
    },
  });

  registerTimeline(routes, {
    path: '/v1/notes/timeline',
    tag: 'notes',
    source: namedTimeline(notes.named),
    input: NoteListInput,
  });
}
