// Representative calls of every note block repository statement (see ../snapshots.test.ts).
import { BlockRepository } from '../../../src/library/blocks/repository.js';
import { BlockViewRepository } from '../../../src/library/blocks/view.repository.js';
import { sqlCases } from '../capture.js';

const AT = '2024-01-01T00:00:00.000Z';
/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED = { kind: 'subtree', rootId: 3 } as const;
const ALL = { kind: 'all' } as const;

export default [
  sqlCases(BlockRepository, [
    ['note', (r) => r.note(7, ALL)],
    ['note (confined)', (r) => r.note(7, SCOPED)],
    ['find', (r) => r.find(12, ALL)],
    ['find (confined)', (r) => r.find(12, SCOPED)],
    ['filterFacts', (r) => r.filterFacts(7)],
    ['ofNote', (r) => r.ofNote(7)],
    ['positions', (r) => r.positions(7)],
    ['lastPosition', (r) => r.lastPosition(7)],
    ['longestPosition', (r) => r.longestPosition(7)],
    ['firstText', (r) => r.firstText(7)],
    ['insert', (r) => r.insert({ created_at: AT, updated_at: AT, created_by_user_id: 1, note_id: 7, type: 'text', position: 'n', content: '{"text":""}', state: '{}' })],
    ['update', (r) => r.update(12, { state: '{"checked":["a"]}', updated_at: AT })],
    ['move', (r) => r.move(7, 12, 'g', AT)],
    ['remove', (r) => r.remove(12)],
    ['existing', (r) => r.existing('queries', [3, 4], SCOPED)],
    ['existing (resources, confined)', (r) => r.existing('resources', [3, 4], SCOPED)],
    ['existing (groups, confined)', (r) => r.existing('groups', [3], SCOPED)],
    ['setNoteDescription', (r) => r.setNoteDescription(7, 'first line')],
  ]),
  sqlCases(BlockViewRepository, [
    ['galleryResources', (r) => r.galleryResources([1, 2], ALL)],
    ['galleryResources (confined)', (r) => r.galleryResources([1, 2], SCOPED)],
    ['referencedGroups', (r) => r.referencedGroups([3], ALL)],
    ['referencedGroups (confined)', (r) => r.referencedGroups([3], SCOPED)],
    ['storedFile', (r) => r.storedFile(4, ALL)],
    ['storedFile (confined)', (r) => r.storedFile(4, SCOPED)],
  ]),
];
