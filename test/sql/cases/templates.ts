// Representative look-ups of the shortcode engine (see ../snapshots.test.ts).
import { TemplateRepository } from '../../../src/library/templates/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(TemplateRepository, [
    ['carriers', (r) => r.carriers('resource', [1, 2])],
    ['slot (a category header)', (r) => r.slot('group', 8, 'custom_header')],
    ['slot (a resource category preview)', (r) => r.slot('resource', 2, 'custom_preview')],
    ['chains', (r) => r.chains([3, 5])],
    ['partial', (r) => r.partial('price-tag')],
  ]),
];
