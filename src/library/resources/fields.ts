// Request fields shared by the resource write endpoints and the download queue, whose jobs
// take exactly the parameters of POST /v1/resource/remote.
import { Type } from '@sinclair/typebox';

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));

export const writeFields = {
  Name: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
  OwnerId: Type.Optional(Type.Integer({ description: 'owner group (0 clears on edit)' })),
  Groups: ids('related group ids'),
  Tags: ids('tag ids'),
  Notes: ids('note ids'),
  Meta: Type.Optional(Type.String({ description: 'JSON object' })),
  Category: Type.Optional(Type.String({ description: 'legacy free-text category' })),
  ContentCategory: Type.Optional(Type.String()),
  ResourceCategoryId: Type.Optional(Type.Integer({ description: 'omit to auto-detect from AutoDetectRules' })),
  OriginalName: Type.Optional(Type.String()),
  OriginalLocation: Type.Optional(Type.String()),
  Width: Type.Optional(Type.Integer({ minimum: 0, description: 'manual override' })),
  Height: Type.Optional(Type.Integer({ minimum: 0, description: 'manual override' })),
  SeriesSlug: Type.Optional(Type.String({ description: 'finds or creates the series' })),
  SeriesId: Type.Optional(Type.Integer()),
  PathName: Type.Optional(Type.String({ description: 'filesystem key from -alt-fs; empty for the main one' })),
};

export const remoteFields = {
  ...writeFields,
  URL: Type.Optional(Type.String({ description: 'one or more URLs separated by newlines' })),
  FileName: Type.Optional(Type.String()),
  GroupCategoryName: Type.Optional(Type.String()),
  GroupName: Type.Optional(Type.String()),
  GroupMeta: Type.Optional(Type.String()),
  background: Type.Optional(Type.Boolean()),
};

