// Representative calls of every group import statement (see ../snapshots.test.ts).
import { ImportApplyRepository } from '../../../src/library/imports/apply/repository.js';
import { ImportResourceRepository } from '../../../src/library/imports/apply/resources.repository.js';
import { ImportPlanRepository } from '../../../src/library/imports/plan.repository.js';
import { sqlCases } from '../capture.js';

const AT = '2024-01-01T00:00:00.000Z';
const STAMP = { created_at: AT, updated_at: AT, created_by_user_id: 1 };
const GUID = '00000000-0000-4000-8000-000000000000';

export default [
  sqlCases(ImportPlanRepository, [
    ['byFoldedName (tags)', (r) => r.byFoldedName('tags', ['alpha', 'beta'])],
    ['byGuid (groups)', (r) => r.byGuid('groups', [GUID])],
    ['relationTypesByFoldedName', (r) => r.relationTypesByFoldedName(['works on'])],
    ['currentHashes', (r) => r.currentHashes(['a'.repeat(40)])],
    ['versionHashes', (r) => r.versionHashes(['a'.repeat(40)])],
    ['seriesBySlug', (r) => r.seriesBySlug(['holiday'])],
    ['existing (note types)', (r) => r.existing('note_types', [1, 2])],
    ['existing (none)', (r) => r.existing('groups', [])],
  ]),
  sqlCases(ImportApplyRepository, [
    ['guidTaken', (r) => r.guidTaken('categories', GUID)],
    ['nameTaken', (r) => r.nameTaken('resource_categories', 'Scans (2)')],
    ['insertTag', (r) => r.insertTag({ ...STAMP, guid: GUID, name: 'alpha', description: '', meta: '{}' })],
    ['relationTypeBetween', (r) => r.relationTypeBetween('Works on', 1, 2)],
    ['insertRelationType', (r) => r.insertRelationType({ ...STAMP, guid: GUID, name: 'Works on', description: '', from_category_id: 1, to_category_id: 2, back_relation_id: null })],
    ['insertCarrier (note types)', (r) => r.insertCarrier('note_types', { ...STAMP, guid: GUID, name: 'Meeting', description: '', custom_header: '', section_config: '{}', apply_templates_to_shares: true })],
    ['setBackRelation', (r) => r.setBackRelation(5, 6)],
    ['idsByGuid (notes)', (r) => r.idsByGuid('notes', [GUID])],
    ['group', (r) => r.group(3)],
    ['insertGroup', (r) => r.insertGroup({ ...STAMP, guid: GUID, name: 'Acme', description: '', url: null, meta: '{}', owner_id: null, category_id: 1 })],
    ['updateGroup', (r) => r.updateGroup(3, { description: 'root', updated_at: AT })],
    ['note', (r) => r.note(4)],
    ['insertNote', (r) => r.insertNote({ ...STAMP, guid: GUID, name: 'Kick-off', description: '', meta: '{}', owner_id: 3, note_type_id: null, start_date: null, end_date: null })],
    ['updateNote', (r) => r.updateNote(4, { description: 'agenda', updated_at: AT })],
    ['setTags (groups, replacing)', (r) => r.setTags('group', 3, [7, 8], true)],
    ['setTags (notes)', (r) => r.setTags('note', 4, [7])],
    ['hasBlocks', (r) => r.hasBlocks(4)],
    ['deleteBlocks', (r) => r.deleteBlocks(4)],
    ['insertBlocks', (r) => r.insertBlocks([{ ...STAMP, note_id: 4, type: 'text', position: 'n', content: '{"text":"x"}', state: '{}' }])],
    ['queryIdByName', (r) => r.queryIdByName('all tags')],
    ['existing', (r) => r.existing('resources', [10, 11])],
    ['insertLinks', (r) => r.insertLinks('resource_notes', [[4, 10]])],
    ['groupCategories', (r) => r.groupCategories([3, 5])],
    ['relationTypeCategories', (r) => r.relationTypeCategories([5])],
    ['insertRelations', (r) => r.insertRelations([{ ...STAMP, name: 'lead', description: '', from_group_id: 5, to_group_id: 3, relation_type_id: 5 }])],
  ]),
  sqlCases(ImportResourceRepository, [
    ['withHash', (r) => r.withHash('a'.repeat(40))],
    ['versionWithHash', (r) => r.versionWithHash('a'.repeat(40))],
    ['seriesBySlug', (r) => r.seriesBySlug(['holiday'])],
    ['insertSeries', (r) => r.insertSeries({ ...STAMP, name: 'Holiday', slug: 'holiday', meta: '{}' })],
    ['seriesIdOf', (r) => r.seriesIdOf('holiday')],
    ['seriesMeta', (r) => r.seriesMeta(2)],
    ['resource', (r) => r.resource(10)],
    [
      'insertResource',
      (r) =>
        r.insertResource({
          ...STAMP,
          guid: GUID,
          name: 'logo.png',
          original_name: 'logo.png',
          original_location: '',
          hash: 'a'.repeat(40),
          hash_type: 'SHA1',
          location: '/resources/aa/aa/aa/x.png',
          storage_location: null,
          description: '',
          meta: '{}',
          own_meta: '{}',
          width: 4,
          height: 4,
          file_size: 100,
          category: '',
          content_type: 'image/png',
          content_category: 'image',
          resource_category_id: 1,
          series_id: null,
          owner_id: 3,
          current_version_id: null,
        }),
    ],
    ['updateResource', (r) => r.updateResource(10, { current_version_id: 12 })],
    [
      'insertVersion',
      (r) =>
        r.insertVersion({ ...STAMP, resource_id: 10, version_number: 1, hash: 'a'.repeat(40), hash_type: 'SHA1', file_size: 100, content_type: 'image/png', width: 4, height: 4, location: '/resources/aa/aa/aa/x.png', storage_location: null, comment: 'Original' }),
    ],
  ]),
];
