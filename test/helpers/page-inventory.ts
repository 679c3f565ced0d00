// The library's page inventory (companion §6.4) over a small, realistic library: the fixtures
// every page needs to have something to show, and the list of pages to visit. Used by the
// accessibility/phone walk (test/library/ui/inventory-walk.ts) and the screenshot script.
import type { TestLibrary } from './library.js';
import { png, upload } from './resources.js';

export interface InventoryPage {
  path: string;
  /** A short file-name-safe label for screenshots. */
  name: string;
  /** Shown in the README's screenshot table. */
  main?: boolean;
}

async function id(lib: TestLibrary, method: string, path: string, body: unknown): Promise<number> {
  const res = await lib.json<{ ID?: number; id?: number } | { ID: number }[]>(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  const row = Array.isArray(res.body) ? res.body[0] : res.body;
  return (row.ID ?? (row as { id?: number }).id) as number;
}

export async function buildInventory(lib: TestLibrary): Promise<InventoryPage[]> {
  const category = await id(lib, 'POST', '/v1/category', { Name: 'Projects', Description: 'Work grouped by project' });
  const people = await id(lib, 'POST', '/v1/category', { Name: 'People' });
  const resCategory = await id(lib, 'POST', '/v1/resourceCategory', { Name: 'Photos' });
  const noteType = await id(lib, 'POST', '/v1/note/noteType', { Name: 'Meeting' });
  const tags = [];
  for (const name of ['holiday', 'family', 'receipts', 'to-read', 'archive']) tags.push(await id(lib, 'POST', '/v1/tag', { Name: name, Description: `Things about ${name}` }));
  const home = await id(lib, 'POST', '/v1/group', { Name: 'Home', Description: 'Everything about the house', CategoryId: category, Tags: [tags[0]] });
  const garden = await id(lib, 'POST', '/v1/group', { Name: 'Garden', OwnerId: home, CategoryId: category, Tags: [tags[1]] });
  const alice = await id(lib, 'POST', '/v1/group', { Name: 'Alice', CategoryId: people });
  const relType = await id(lib, 'POST', '/v1/relationType', { Name: 'maintained by', ReverseName: 'maintains', FromCategory: category, ToCategory: people });
  const relation = await id(lib, 'POST', '/v1/relation', { FromGroupId: garden, ToGroupId: alice, GroupRelationTypeId: relType });
  const note = await id(lib, 'POST', '/v1/note', { Name: 'Plan the vegetable beds', Description: 'Tomatoes by the south wall; beans along the fence.', OwnerId: garden, Tags: [tags[0], tags[1]], NoteTypeId: noteType });
  await id(lib, 'POST', '/v1/note', { Name: 'Call the roofer', Description: 'Ask about the gutter.', OwnerId: home });
  const resources: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await upload(lib, [{ name: `photo-${i + 1}.png`, data: await png(320, 200, i + 11) }], { OwnerId: garden, Tags: tags[i % 3], ResourceCategoryId: resCategory });
    if (res.status >= 300) throw new Error(`upload → ${res.status} ${JSON.stringify(res.body)}`);
    resources.push((res.body as { ID: number }[])[0].ID);
  }
  const series = await id(lib, 'POST', '/v1/series/create', { Name: 'Garden photos', Slug: 'garden-photos' });
  const query = await id(lib, 'POST', '/v1/query', { Name: 'Largest files', Text: 'SELECT id, name, file_size FROM resources ORDER BY file_size DESC LIMIT 10' });
  const partial = await id(lib, 'POST', '/v1/templatePartial', { Name: 'owner-badge', Content: '<strong>[property path="Name"]</strong>' });
  const saved = await id(lib, 'POST', '/v1/mrql/saved', { name: 'Recent photos', query: 'type = resource AND tags = "holiday"' });
  const logs = await lib.json<{ ID?: number; id?: number }[]>('GET', '/v1/logs');
  const log = logs.body[0]?.ID ?? logs.body[0]?.id ?? 1;
  const pages: InventoryPage[] = [
    { path: '/dashboard', name: 'dashboard', main: true },
    { path: '/search?q=garden', name: 'search' },
    { path: '/resources', name: 'resources', main: true },
    { path: '/resources/details', name: 'resources-details' },
    { path: `/resource?id=${resources[0]}`, name: 'resource', main: true },
    { path: '/resource/new', name: 'resource-new' },
    { path: `/resource/edit?id=${resources[0]}`, name: 'resource-edit' },
    { path: `/resource/compare?r1=${resources[0]}&r2=${resources[1]}`, name: 'resource-compare' },
    { path: '/notes', name: 'notes', main: true },
    { path: `/note?id=${note}`, name: 'note', main: true },
    { path: `/note/text?id=${note}`, name: 'note-text' },
    { path: '/note/new', name: 'note-new' },
    { path: `/note/edit?id=${note}`, name: 'note-edit' },
    { path: '/groups', name: 'groups', main: true },
    { path: `/group?id=${garden}`, name: 'group', main: true },
    { path: '/group/new', name: 'group-new' },
    { path: `/group/edit?id=${garden}`, name: 'group-edit' },
    { path: '/group/tree', name: 'group-tree' },
    { path: `/group/compare?g1=${home}&g2=${garden}`, name: 'group-compare' },
    { path: '/tags', name: 'tags', main: true },
    { path: `/tag?id=${tags[0]}`, name: 'tag', main: true },
    { path: '/tag/new', name: 'tag-new' },
    { path: `/tag/edit?id=${tags[0]}`, name: 'tag-edit' },
    { path: '/categories', name: 'categories' },
    { path: `/category?id=${category}`, name: 'category' },
    { path: '/category/new', name: 'category-new' },
    { path: '/resourceCategories', name: 'resource-categories' },
    { path: `/resourceCategory?id=${resCategory}`, name: 'resource-category' },
    { path: '/noteTypes', name: 'note-types' },
    { path: `/noteType?id=${noteType}`, name: 'note-type' },
    { path: '/templatePartials', name: 'partials' },
    { path: `/templatePartial?id=${partial}`, name: 'partial' },
    { path: '/relationTypes', name: 'relation-types' },
    { path: `/relationType?id=${relType}`, name: 'relation-type' },
    { path: '/relationType/new', name: 'relation-type-new' },
    { path: '/relations', name: 'relations' },
    { path: `/relation?id=${relation}`, name: 'relation' },
    { path: '/relation/new', name: 'relation-new' },
    { path: '/seriesList', name: 'series-list' },
    { path: `/series?id=${series}`, name: 'series' },
    { path: '/queries', name: 'queries' },
    { path: `/query?id=${query}`, name: 'query' },
    { path: '/query/new', name: 'query-new' },
    { path: '/mrql', name: 'mrql', main: true },
    { path: `/mrql?saved=${saved}`, name: 'mrql-saved' },
    { path: '/mrql/syntax', name: 'mrql-syntax' },
    { path: '/downloads', name: 'downloads' },
    { path: '/logs', name: 'logs' },
    { path: `/log?id=${log}`, name: 'log' },
    { path: '/admin/overview', name: 'admin-overview', main: true },
    { path: '/admin/settings', name: 'admin-settings', main: true },
    { path: '/admin/users', name: 'admin-users' },
    { path: '/admin/export', name: 'admin-export' },
    { path: '/admin/import', name: 'admin-import' },
    { path: '/admin/shares', name: 'admin-shares' },
    { path: '/no/such/page', name: 'not-found' },
  ];
  return pages;
}
