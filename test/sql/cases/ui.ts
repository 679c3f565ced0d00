// Representative calls of every statement of the shared page parts (see ../snapshots.test.ts).
import { CarrierSlotRepository, DashboardRepository, PickRepository } from '../../../src/library/ui/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(PickRepository, [
    ['names', (r) => r.names('groups', [3, 4])],
    ['names (none asked)', (r) => r.names('tags', [])],
  ]),
  sqlCases(CarrierSlotRepository, [
    ['css', (r) => r.css('resource_categories', 2)],
    ['listSlots', (r) => r.listSlots('note_types', 3)],
  ]),
  sqlCases(DashboardRepository, [
    ['recent', (r) => r.recent('notes', 6)],
    ['activity', (r) => r.activity(20)],
  ]),
];
