// Resource pages (companion §6.4): the thumbnail grid and the details table with every list
// filter and bulk tag/group/delete actions, the resource page (preview, metadata, versions
// with compare, image operations), the upload form (several files or URLs) and the edit form,
// and the version comparison page.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { EmptyState, Checkbox, Field, FormPage, OptionSelect, Pagination, Picker, PostButton, SortSelect, TextArea, Timestamps, firstOf, queryOf, type PickerItem } from '../ui/components.js';
import { When } from '../ui/dates.js';
import { Markdown } from '../ui/markdown.js';
import { UploadTarget } from '../ui/upload.js';
import { formPicks, picked } from '../ui/picked.js';
import type { PickRepository } from '../ui/repository.js';
import { carrierCss, describedHtml, listSlots, pageSlots } from '../ui/slots.js';
import { BulkBar, SelectBox, selectionScope } from '../ui/bulk.js';
import type { Shortcodes } from '../templates/index.js';
import type { ResourceContext } from './context.js';
import { seenBy } from '../http/routes.js';
import { ResourceListInput } from './filters.js';
import type { ResourceRecord } from './records.js';
import type { ResourceService } from './service.js';
import type { VersionService } from '../versions/service.js';
import { comparison } from '../versions/service.js';
import type { SimilarityService } from '../similarity/service.js';
import { FileViewer, viewerData, type ViewerData } from './viewer.js';

const IdInput = Type.Object({ id: Type.Integer() });

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

function Thumb(props: { r: { ID: number; Name: string }; height?: number }): SafeHtml {
  const hgt = props.height ?? 200;
  return <img src={`/v1/resource/preview?ID=${props.r.ID}&Height=${hgt}`} alt={props.r.Name} loading="lazy" height={hgt} class="thumb" />;
}

function ResourceFilters(props: { req: FastifyRequest; action: string; categories: { id: number; name: string }[]; picks: { tags: PickerItem[]; groups: PickerItem[]; owner: PickerItem[] } }): SafeHtml {
  const q = queryOf(props.req);
  const v = (k: string) => firstOf(q[k]);
  return (
    <form method="get" action={props.action} class="filters">
      <h2>Filters</h2>
      <Field label="Name" name="Name" value={v('Name')} />
      <Field label="Description" name="Description" value={v('Description')} />
      <Field label="Content type" name="ContentType" value={v('ContentType')} placeholder="image/" />
      <Picker label="Owner" name="OwnerId" source="/v1/groups" multiple={false} selected={props.picks.owner} />
      <Checkbox label="Include subgroups" name="IncludeSubgroups" checked={v('IncludeSubgroups') === 'true'} />
      <Picker label="Tags (all of them)" name="Tags" source="/v1/tags/suggest" selected={props.picks.tags} />
      <Picker label="Groups (each of them)" name="Groups" source="/v1/groups" selected={props.picks.groups} />
      <OptionSelect label="Resource category" name="ResourceCategoryId" options={props.categories} selected={v('ResourceCategoryId')} empty="any" />
      <Field label="Original name" name="OriginalName" value={v('OriginalName')} />
      <Field label="Hash (SHA-1)" name="Hash" value={v('Hash')} />
      <Field label="Min width" name="MinWidth" type="number" value={v('MinWidth')} />
      <Field label="Max width" name="MaxWidth" type="number" value={v('MaxWidth')} />
      <Field label="Min height" name="MinHeight" type="number" value={v('MinHeight')} />
      <Field label="Max height" name="MaxHeight" type="number" value={v('MaxHeight')} />
      <Field label="Meta query" name="MetaQuery" value={v('MetaQuery')} placeholder="key:value or key:EQ:value" />
      <Checkbox label="Untagged only" name="Untagged" checked={v('Untagged') === 'true'} />
      <Checkbox label="Without owner only" name="ShowWithoutOwner" checked={v('ShowWithoutOwner') === 'true'} />
      <Checkbox label="With similar images" name="ShowWithSimilar" checked={v('ShowWithSimilar') === 'true'} />
      <Checkbox label="Solid colour (dHash zero)" name="ShowDhashZero" checked={v('ShowDhashZero') === 'true'} />
      <Field label="Created after" name="CreatedAfter" type="date" value={v('CreatedAfter')} />
      <Field label="Created before" name="CreatedBefore" type="date" value={v('CreatedBefore')} />
      <SortSelect req={props.req} columns={['name', 'created_at', 'updated_at', 'file_size', 'width', 'height']} />
      <button type="submit">Apply</button>
    </form>
  );
}

function Select(props: { r: { ID: number; Name: string } }): SafeHtml {
  return <SelectBox id={props.r.ID} name={props.r.Name} />;
}

export interface ResourcePageDeps {
  ctx: ResourceContext;
  resources: ResourceService;
  versions: VersionService;
  similarity: SimilarityService;
  pickers: PickRepository;
  shortcodes: Shortcodes;
}

export function registerResourcePages(app: FastifyInstance, layout: Layout, deps: ResourcePageDeps): void {
  const { ctx, resources, versions, similarity, pickers, shortcodes } = deps;
  const lib = ctx.lib;
  const categories = () => resources.categoryOptions();
  /** The pickers of the upload and edit forms start with the links (or the refused submission). */
  const formPicksOf = async (req: FastifyRequest, r?: ResourceRecord): Promise<ResourceFormPicks> => ({
    owner: await formPicks(pickers, req, 'groups', 'OwnerId', r?.Owner ? [r.Owner] : []),
    tags: await formPicks(pickers, req, 'tags', 'Tags', r?.Tags ?? []),
    groups: await formPicks(pickers, req, 'groups', 'Groups', r?.Groups ?? []),
    notes: await formPicks(pickers, req, 'notes', 'Notes', r?.Notes ?? []),
  });

  const listPage = (path: string, title: string, view: (rows: ResourceRecord[]) => SafeHtml) =>
    registerPage(app, layout, {
      path,
      needs: 'read',
      load: async (req) => {
        const input = readParams(ResourceListInput, makeBag(req.query));
        const { rows, page, perPage } = await resources.list(seenBy(req), input);
        const otherView = path === '/resources' ? ['/resources/details', 'Details'] : ['/resources', 'Grid'];
        const search = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
        return {
          pageTitle: title,
          resources: rows,
          pagination: { page, perPage },
          parsedQuery: input,
          // Filtered to one resource category, the list shows its list header, footer and CSS.
          _slots: await listSlots(lib, shortcodes, req.principal, 'resource', input.ResourceCategoryId),
          errorMessage: firstOf(queryOf(req).error) || undefined,
          _layout: {
            sidebar: (
              <ResourceFilters
                req={req}
                action={path}
                categories={await categories()}
                picks={{ tags: await picked(pickers, req, 'tags', input.Tags ?? []), groups: await picked(pickers, req, 'groups', input.Groups ?? []), owner: await picked(pickers, req, 'groups', [input.OwnerId]) }}
              />
            ),
            // The table's rows offer the plugin card actions, like the cards of /resources (§17.3).
            pluginList: path === '/resources/details' ? { entity: 'resource' as const } : undefined,
            actions: (
              <span>
                <a class="button" href={otherView[0] + search}>
                  {otherView[1]}
                </a>{' '}
                <a class="button" href={`/resource/new${input.OwnerId ? `?OwnerId=${input.OwnerId}` : ''}`}>
                  Upload
                </a>
              </span>
            ),
          },
        };
      },
      view: (c, req) => (
        <section x-data={selectionScope(c.resources.map((r) => r.ID))}>
          {c._slots.css}
          {c._slots.header}
          <UploadTarget ownerId={c.parsedQuery.OwnerId} where={c.parsedQuery.OwnerId ? 'to this group' : 'as new resources'} />
          <BulkBar req={req} kind="resources" ops={{ tags: true, groups: true, meta: true, dimensions: true, compare: { path: '/resource/compare', first: 'r1', second: 'r2' }, deleteConfirm: 'Delete the selected resources and their files?' }} />
          {view(c.resources)}
          {c.resources.length === 0 ? <EmptyState req={req} filtered="No resources match these filters." intro="Resources are your files (photos, documents, recordings), each with versions, tags, metadata and previews. Drop files on this page or" start={{ href: '/resource/new', label: 'upload the first ones.' }} /> : null}
          {c._slots.footer}
          <Pagination req={req} page={c.pagination.page} perPage={c.pagination.perPage} count={c.resources.length} />
        </section>
      ),
    });

  listPage('/resources', 'Resources', (rows) => (
    <ul class="cards resource-grid" data-testid="resource-list">
      {rows.map((r) => (
        <li class="card resource-card">
          <a href={`/resource?id=${r.ID}`} data-lightbox-id={r.ID} data-lightbox-name={r.Name}>
            <Thumb r={r} />
          </a>
          <div>
            <Select r={r} /> <a href={`/resource?id=${r.ID}`}>{r.Name}</a>
          </div>
          <small>
            {formatSize(r.FileSize)}
            {r.Width ? ` · ${r.Width}×${r.Height}` : ''}
            {r.Owner ? ' · ' : ''}
            {r.Owner ? <a href={`/group?id=${r.Owner.ID}`}>{r.Owner.Name}</a> : null}
            {r.resourceCategory && r.resourceCategory.Name !== 'Default' ? ` · ${r.resourceCategory.Name}` : ''}
          </small>
          {r.Description ? (
            <details>
              <summary>Description</summary>
              <Markdown text={r.Description} />
            </details>
          ) : null}
          <p class="tags">{(r.Tags ?? []).map((t) => <a class="tag" href={`/resources?Tags=${t.ID}`}>{t.Name}</a>)}</p>
        </li>
      ))}
    </ul>
  ));

  listPage('/resources/details', 'Resources: details', (rows) => (
    <table class="list" data-testid="resource-table">
      <thead>
        <tr>
          <th></th>
          <th>ID</th>
          <th>Name</th>
          <th>Preview</th>
          <th>Size</th>
          <th>Created</th>
          <th>Updated</th>
          <th>Original name</th>
          <th>Original location</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td>
              <Select r={r} />
            </td>
            <td>{r.ID}</td>
            <td>
              <a href={`/resource?id=${r.ID}`}>{r.Name}</a>
            </td>
            <td>
              <a href={`/resource?id=${r.ID}`} data-lightbox-id={r.ID} data-lightbox-name={r.Name}>
                <Thumb r={r} height={60} />
              </a>
            </td>
            <td>{formatSize(r.FileSize)}</td>
            <td><When at={r.CreatedAt} /></td>
            <td><When at={r.UpdatedAt} /></td>
            <td>{r.OriginalName}</td>
            <td>{r.OriginalLocation}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ));

  // The lightbox's info panel (public/lightbox-panels.js) loads the `.body` form: the resource
  // category's CustomLightbox, or its CustomSidebar when that is empty (companion §5.1).
  registerPage(app, layout, {
    path: '/resource/lightbox',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const resource = await resources.read(seenBy(req), id);
      const entity = { ...resource, ResourceCategoryId: resource.resourceCategoryId };
      const own = await pageSlots(shortcodes, req.principal, 'resource', entity, ['custom_lightbox']);
      const slot = own.custom_lightbox ?? (await pageSlots(shortcodes, req.principal, 'resource', entity, ['custom_sidebar'])).custom_sidebar;
      return { pageTitle: resource.Name, _slot: slot };
    },
    view: (c) => c._slot ?? <p class="hint">No lightbox template for this resource's category.</p>,
  });

  registerPage(app, layout, {
    path: '/resource',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const vis = seenBy(req);
      const resource = await resources.read(vis, id);
      const viewer = await viewerData(ctx, await resources.require(vis, id));
      const similar = await similarity.neighbours(resource.ID, ctx.thresholds(), 12);
      // Only the neighbours the caller may see are named, and only those are shown.
      const names = new Map((await pickers.names('resources', similar.map((s) => s.id), vis)).map((s) => [s.id, s.name]));
      // Templates see the carrier id under the name §5.2 gives it.
      const entity = { ...resource, ResourceCategoryId: resource.resourceCategoryId };
      const slots = await pageSlots(shortcodes, req.principal, 'resource', entity, ['custom_header', 'custom_sidebar', 'custom_preview', 'custom_detail_footer']);
      return {
        pageTitle: resource.Name,
        resource,
        viewer,
        _description: await describedHtml(shortcodes, req.principal, 'resource', entity, resource.Description, { class: 'description', empty: 'No description.' }),
        _slots: slots,
        _css: await carrierCss(lib, 'resource', resource.resourceCategoryId),
        similar: similar.filter((s) => names.has(s.id)).map((s) => ({ ID: s.id, Name: names.get(s.id)!, distance: s.distance, tier: s.distance <= 2 ? 'duplicate' : 'similar' })),
        mainEntity: resource,
        mainEntityType: 'resource',
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          pluginTarget: { entity: 'resource', id: resource.ID, contentType: resource.ContentType ?? undefined, categoryId: resource.resourceCategoryId ?? undefined },
          sidebar: (
            <div>
              {slots.custom_sidebar}
              {slots.custom_preview}
              <ResourceSidebar r={resource} />
            </div>
          ),
          actions: (
            <span>
              <a class="button" href={viewer.downloadUrl} download={viewer.downloadName}>
                Download
              </a>{' '}
              <a class="button" href={`/resource/edit?id=${resource.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/resource/delete?Id=${resource.ID}`} label="Delete" danger confirm={`Delete "${resource.Name}" and its file?`} />
            </span>
          ),
        },
      };
    },
    view: (c, req) => (
      <div>
        {c._css}
        {c._slots.custom_header}
        <ResourceDetail r={c.resource} description={c._description} viewer={c.viewer} similar={c.similar} req={req} />
        {c._slots.custom_detail_footer}
        <UploadTarget ownerId={c.resource.Owner?.ID} where={c.resource.Owner ? `as new resources of ${c.resource.Owner.Name}` : 'as new resources'} />
      </div>
    ),
  });

  registerPage(app, layout, {
    path: '/resource/new',
    needs: 'read',
    load: async (req) => ({
      pageTitle: 'Upload resources',
      errorMessage: firstOf(queryOf(req).error) || undefined,
      _categories: await categories(),
      _filesystems: [...ctx.fs.alt.keys()],
      _picks: await formPicksOf(req),
    }),
    view: (c, req) => <ResourceForm req={req} categories={c._categories} filesystems={c._filesystems} picks={c._picks} />,
  });

  registerPage(app, layout, {
    path: '/resource/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const resource = await resources.read(seenBy(req), id);
      return {
        pageTitle: `Edit ${resource.Name}`,
        resource,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _categories: await categories(),
        _filesystems: [] as string[],
        _picks: await formPicksOf(req, resource),
      };
    },
    view: (c, req) => <ResourceForm req={req} r={c.resource} categories={c._categories} filesystems={c._filesystems} picks={c._picks} />,
  });

  registerPage(app, layout, {
    path: '/resource/compare',
    needs: 'read',
    load: async (req, reply) => {
      const q = readParams(Type.Object({ r1: Type.Integer(), v1: Type.Optional(Type.Integer()), r2: Type.Optional(Type.Integer()), v2: Type.Optional(Type.Integer()) }), makeBag(req.query));
      const r2 = q.r2 ?? q.r1;
      const [left, right] = await Promise.all([resources.require(seenBy(req), q.r1), resources.require(seenBy(req), r2)]);
      const numberOf = async (resourceId: number, currentId: number | null) => (await resources.versionNumber(currentId)) ?? (await versions.list(seenBy(req), resourceId))[0]?.versionNumber;
      if (q.v1 === undefined || q.v2 === undefined) {
        const v1 = q.v1 ?? (await numberOf(left.id, left.current_version_id));
        const v2 = q.v2 ?? (await numberOf(right.id, right.current_version_id));
        await reply.code(302).header('location', `/resource/compare?r1=${left.id}&v1=${v1}&r2=${right.id}&v2=${v2}`).send();
        return { pageTitle: 'Compare' } as never;
      }
      const [a, b] = await Promise.all([versions.numbered(left.id, q.v1), versions.numbered(right.id, q.v2)]);
      const result = comparison(a, b, { r1: { ID: left.id, Name: left.name }, r2: { ID: right.id, Name: right.name } });
      return { pageTitle: `Compare ${left.name}`, comparison: result, left: { ID: left.id, Name: left.name }, right: { ID: right.id, Name: right.name } };
    },
    view: (c) => <CompareView c={c.comparison} left={c.left} right={c.right} />,
  });
}

function ResourceSidebar(props: { r: ResourceRecord }): SafeHtml {
  const r = props.r;
  return (
    <div>
      <a href={r.url} data-lightbox-id={r.ID} data-lightbox-name={r.Name}>
        <img src={`/v1/resource/preview?ID=${r.ID}&Width=300`} alt={r.Name} class="preview" width={256} />
      </a>
      <dl class="timestamps">
        <dt>Size</dt>
        <dd>{formatSize(r.FileSize)}</dd>
        <dt>Type</dt>
        <dd>{r.ContentType}</dd>
        <dt>Dimensions</dt>
        <dd>{r.Width ? `${r.Width}×${r.Height}` : 'unknown'}</dd>
        <dt>Owner</dt>
        <dd>{r.Owner ? <a href={`/group?id=${r.Owner.ID}`}>{r.Owner.Name}</a> : 'none'}</dd>
        <dt>Category</dt>
        <dd>{r.resourceCategory ? <a href={`/resourceCategory?id=${r.resourceCategory.ID}`}>{r.resourceCategory.Name}</a> : ''}</dd>
        <dt>Series</dt>
        <dd>{r.series ? <a href={`/series?id=${r.series.ID}`}>{r.series.Name}</a> : 'none'}</dd>
      </dl>
      <Timestamps created={r.CreatedAt} updated={r.UpdatedAt} />
      <form method="post" action={`/v1/resource/preview?ID=${r.ID}`} enctype="multipart/form-data" class="form" id="thumbnail-form">
        <label class="field">
          <span>Custom thumbnail</span>
          <input type="file" name="thumbnail" accept="image/*" required />
          <small>Or paste an image anywhere on this page.</small>
        </label>
        <button type="submit">Set thumbnail</button>
        <p class="hint" role="status" aria-live="polite" data-testid="thumbnail-status"></p>
      </form>
      <script defer src="/public/paste-thumbnail.js"></script>
      <PostButton action={`/v1/resource/preview/clear?ID=${r.ID}`} label="Regenerate thumbnail" />
      {r.series ? <PostButton action={`/v1/resource/removeSeries?id=${r.ID}`} label="Remove from series" /> : null}
    </div>
  );
}

function ResourceDetail(props: { r: ResourceRecord; description: SafeHtml; viewer: ViewerData; similar: { ID: number; Name: string; distance: number; tier: string }[]; req: FastifyRequest }): SafeHtml {
  const r = props.r;
  const isImage = r.ContentType.startsWith('image/') && !r.ContentType.startsWith('image/svg');
  const isVideo = r.ContentType.startsWith('video/');
  const versions = r.versions ?? [];
  return (
    <div>
      <section class="card viewer-card" aria-label="File">
        <FileViewer v={props.viewer} />
      </section>
      <section class="card">
        {props.description}
        <p class="tags">{(r.Tags ?? []).map((t) => <a class="tag" href={`/tag?id=${t.ID}`}>{t.Name}</a>)}</p>
        <table class="list">
          <tbody>
            <tr><th>Original name</th><td>{r.OriginalName}</td></tr>
            <tr><th>Original location</th><td>{r.OriginalLocation}</td></tr>
            <tr><th>ID</th><td>{r.ID}</td></tr>
            <tr><th>GUID</th><td>{r.guid}</td></tr>
            <tr><th>Hash</th><td><code>{r.Hash}</code></td></tr>
            <tr><th>Location</th><td><code>{r.Location}</code></td></tr>
            <tr><th>Storage</th><td>{r.StorageLocation ?? 'main'}</td></tr>
          </tbody>
        </table>
        <h3>Meta</h3>
        <pre>{JSON.stringify(r.Meta, null, 2)}</pre>
      </section>
      {(r.Notes ?? []).length || (r.Groups ?? []).length ? (
        <section class="card">
          <h2>Related</h2>
          <ul>
            {(r.Groups ?? []).map((g) => <li>Group: <a href={`/group?id=${g.ID}`}>{g.Name}</a></li>)}
            {(r.Notes ?? []).map((n) => <li>Note: <a href={`/note?id=${n.ID}`}>{n.Name}</a></li>)}
          </ul>
        </section>
      ) : null}
      {props.similar.length ? (
        <section class="card">
          <h2>Similar resources</h2>
          <ul class="cards">
            {props.similar.map((s) => (
              <li class="card">
                <a href={`/resource?id=${s.ID}`}><Thumb r={s} height={100} /></a>
                <div>{s.Name} <small>({s.tier}, distance {s.distance})</small></div>
                <a href={`/resource/compare?r1=${r.ID}&r2=${s.ID}`}>Compare</a>
              </li>
            ))}
          </ul>
          <PostButton action="/v1/resources/merge" label="Merge others to this" confirm="Merge the similar resources into this one?" fields={{ Winner: r.ID, Losers: props.similar.map((s) => s.ID).join(',') }} />
        </section>
      ) : null}
      <section class="card" data-testid="versions">
        <h2>Versions</h2>
        <table class="list">
          <thead>
            <tr><th>#</th><th>Created</th><th>Size</th><th>Type</th><th>Comment</th><th></th></tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr>
                <td>v{v.versionNumber}{v.id === r.currentVersionId ? ' (current)' : ''}</td>
                <td><When at={v.createdAt} /></td>
                <td>{formatSize(v.fileSize)}</td>
                <td>{v.contentType}</td>
                <td>{v.comment}</td>
                <td>
                  <a href={`/v1/resource/version/file?versionId=${v.id}`}>Download</a>{' '}
                  {v.id !== r.currentVersionId ? <PostButton action="/v1/resource/version/restore" label="Restore" fields={{ resourceId: r.ID, versionId: v.id }} /> : null}{' '}
                  {v.id !== r.currentVersionId && versions.length > 1 ? <PostButton action={`/v1/resource/version/delete?resourceId=${r.ID}&versionId=${v.id}`} label="Delete" danger confirm={`Delete version ${v.versionNumber}?`} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {versions.length >= 2 ? (
          <form method="get" action="/resource/compare" class="inline">
            <input type="hidden" name="r1" value={r.ID} />
            <select name="v1" aria-label="Left version">{versions.map((v, i) => <option value={v.versionNumber} selected={i === 1}>v{v.versionNumber}</option>)}</select>
            <select name="v2" aria-label="Right version">{versions.map((v, i) => <option value={v.versionNumber} selected={i === 0}>v{v.versionNumber}</option>)}</select>
            <button type="submit">Compare</button>
          </form>
        ) : null}
        <form method="post" action={`/v1/resource/versions?resourceId=${r.ID}`} enctype="multipart/form-data" class="form">
          <input type="file" name="file" required aria-label="File of the new version" />
          <input name="comment" placeholder="comment" aria-label="Comment on the new version" />
          <button type="submit">Upload new version</button>
        </form>
      </section>
      {isImage ? (
        <section class="card">
          <h2>Image operations</h2>
          <PostButton action="/v1/resources/rotate" label="Rotate 90° clockwise" fields={{ ID: r.ID, Degrees: 90 }} />{' '}
          <PostButton action="/v1/resources/rotate" label="Rotate 90° counter-clockwise" fields={{ ID: r.ID, Degrees: -90 }} />{' '}
          <PostButton action="/v1/resource/recalculateDimensions" label="Recalculate dimensions" fields={{ ID: r.ID }} />
          <form method="post" action="/v1/resources/crop" class="form">
            <input type="hidden" name="ID" value={r.ID} />
            <Field label="X" name="X" type="number" value={0} />
            <Field label="Y" name="Y" type="number" value={0} />
            <Field label="Width" name="Width" type="number" value={r.Width} />
            <Field label="Height" name="Height" type="number" value={r.Height} />
            <Field label="Comment" name="Comment" />
            <Checkbox label="Save as a new resource" name="AsNewResource" />
            <button type="submit">Crop</button>
          </form>
        </section>
      ) : null}
      {isVideo ? (
        <section class="card">
          <h2>Trim video</h2>
          <form method="post" action="/v1/resources/trim" class="form">
            <input type="hidden" name="ID" value={r.ID} />
            <Field label="Start (seconds or MM:SS)" name="Start" required />
            <Field label="End" name="End" required />
            <Field label="Comment" name="Comment" />
            <button type="submit">Trim (new version)</button>
          </form>
        </section>
      ) : null}
    </div>
  );
}

interface ResourceFormPicks {
  owner: PickerItem[];
  tags: PickerItem[];
  groups: PickerItem[];
  notes: PickerItem[];
}

function ResourceForm(props: { req: FastifyRequest; r?: ResourceRecord; categories: { id: number; name: string }[]; filesystems: string[]; picks: ResourceFormPicks }): SafeHtml {
  const q = queryOf(props.req);
  const r = props.r;
  const value = (k: string, fallback: string | number | null | undefined) => firstOf(q[k]) || String(fallback ?? '');
  const categoryId = Number(value('ResourceCategoryId', r?.resourceCategoryId));
  return (
    <form method="post" action={r ? '/v1/resource/edit' : '/v1/resource'} enctype={r ? undefined : 'multipart/form-data'} class="card form">
      <FormPage req={props.req} />
      {r ? <input type="hidden" name="ID" value={r.ID} /> : null}
      {r ? null : (
        <div>
          <label class="field">
            <span>Files</span>
            <input type="file" name="resource" multiple />
          </label>
          <TextArea label="…or URLs (one per line)" name="URL" rows={2} value={value('URL', '')} />
          {props.filesystems.length ? (
            <label class="field">
              <span>Filesystem</span>
              <select name="PathName">
                <option value="">main</option>
                {props.filesystems.map((k) => <option value={k}>{k}</option>)}
              </select>
            </label>
          ) : null}
        </div>
      )}
      <Field label={r ? 'Name' : 'Name (defaults to the file name)'} name="Name" value={value('Name', r?.Name)} />
      <TextArea label="Description" name="Description" value={value('Description', r?.Description)} mentions="note,group,tag" hint="Markdown; type @ to mention a note, group or tag." />
      <Picker label="Owner group" name="OwnerId" source="/v1/groups" multiple={false} empty="0" selected={props.picks.owner} />
      <Picker label="Tags" name="Tags" source="/v1/tags/suggest" selected={props.picks.tags} />
      <Picker label="Related groups" name="Groups" source="/v1/groups" selected={props.picks.groups} />
      <Picker label="Notes" name="Notes" source="/v1/notes" selected={props.picks.notes} />
      <label class="field">
        <span>Resource category</span>
        <select name="ResourceCategoryId">
          <option value="">{r ? 'unchanged' : 'detect automatically'}</option>
          {props.categories.map((c) => (
            <option value={c.id} selected={c.id === categoryId}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <Field label="Series slug" name="SeriesSlug" value={value('SeriesSlug', r?.series?.Slug)} hint="creates the series when it does not exist" />
      <Field label="Original name" name="OriginalName" value={value('OriginalName', r?.OriginalName)} />
      <Field label="Original location" name="OriginalLocation" value={value('OriginalLocation', r?.OriginalLocation)} />
      <TextArea label="Meta (JSON object)" name="Meta" code value={value('Meta', r ? JSON.stringify(r.ownMeta && r.seriesId ? r.Meta : r.Meta, null, 2) : '{}')} />
      <button type="submit">{r ? 'Save' : 'Upload'}</button>
    </form>
  );
}

function CompareView(props: { c: ReturnType<typeof comparison>; left: { ID: number; Name: string }; right: { ID: number; Name: string } }): SafeHtml {
  const { c } = props;
  const same = c.crossResource ? ['Left', 'Right'] : [`v${c.version1.versionNumber}`, `v${c.version2.versionNumber}`];
  const img = (v: typeof c.version1) => (v.contentType.startsWith('image/') ? <img src={`/v1/resource/version/file?versionId=${v.id}&disposition=inline`} alt="" style="max-width:100%" /> : <a href={`/v1/resource/version/file?versionId=${v.id}`}>Download</a>);
  return (
    <div>
      <table class="list" data-testid="compare">
        <thead>
          <tr><th></th><th>{same[0]}: {props.left.Name}</th><th>{same[1]}: {props.right.Name}</th></tr>
        </thead>
        <tbody>
          <tr><th>Type</th><td>{c.version1.contentType}</td><td>{c.version2.contentType} {c.sameType ? '(same)' : '(different)'}</td></tr>
          <tr><th>Size</th><td>{formatSize(c.version1.fileSize)}</td><td>{formatSize(c.version2.fileSize)} ({c.sizeDelta >= 0 ? '+' : ''}{c.sizeDelta} bytes)</td></tr>
          <tr><th>Dimensions</th><td>{c.version1.width}×{c.version1.height}</td><td>{c.version2.width}×{c.version2.height} {c.dimensionsDiff ? '(different)' : '(same)'}</td></tr>
          <tr><th>Hash</th><td><code>{c.version1.hash}</code></td><td><code>{c.version2.hash}</code> {c.sameHash ? '(same)' : '(different)'}</td></tr>
          <tr><th>Created</th><td>{c.version1.createdAt}</td><td>{c.version2.createdAt}</td></tr>
          <tr><th>Comment</th><td>{c.version1.comment}</td><td>{c.version2.comment}</td></tr>
        </tbody>
      </table>
      <div class="compare-side">
        <div>{img(c.version1)}</div>
        <div>{img(c.version2)}</div>
      </div>
    </div>
  );
}
