// Representative calls of every statement of the shared page parts (see ../snapshots.test.ts).
import { CarrierSlotRepository, DashboardRepository, PickRepository } from '../../../src/library/ui/repository.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED = { kind: 'subtree', rootId: 3 } as const;
const ALL = { kind: 'all' } as const;

export default [
  sqlCases(PickRepository, [
    ['names', (r) => r.names('groups', [3, 4], ALL)],
    ['names (groups, confined)', (r) => r.names('groups', [3, 4], SCOPED)],
    ['names (resources, confined)', (r) => r.names('resources', [5], SCOPED)],
    ['names (none asked)', (r) => r.names('tags', [], ALL)],
  ]),
  sqlCases(CarrierSlotRepository, [
    ['css', (r) => r.css('resource_categories', 2)],
    ['listSlots', (r) => r.listSlots('note_types', 3)],
  ]),
  sqlCases(DashboardRepository, [
    ['recent', (r) => r.recent('notes', 6, ALL)],
    ['recent (confined)', (r) => r.recent('notes', 6, SCOPED)],
    ['activity', (r) => r.activity(20, ALL)],
    ['activity (confined)', (r) => r.activity(20, SCOPED)],
  ]),
];
