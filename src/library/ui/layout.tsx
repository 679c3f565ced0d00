// The page layout: head, header menu, title area, sidebar and main column (companion §6.2).
import type { FastifyRequest } from 'fastify';
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import type { Layout, PageContext } from '../../core/http/pages.js';
import { can, mayImportGroups, type Principal } from '../auth/principal.js';
import { authEnabledFor, csrfTokenOf } from '../auth/pipeline.js';
import { isSafeRelativePath } from '../../core/http/respond.js';
import { withoutForbiddenActions, type Permission } from './permitted.js';

// Notes, Resources and MRQL join the menu with the issues that build them.
const MAIN_MENU: [string, string][] = [
  ['Dashboard', '/dashboard'],
  ['Notes', '/notes'],
  ['Tags', '/tags'],
  ['Groups', '/groups'],
  ['Resources', '/resources'],
  ['MRQL', '/mrql'],
];

const ADMIN_MENU: [string, string][] = [
  ['Overview', '/admin/overview'],
  ['Queries', '/queries'],
  ['Categories', '/categories'],
  ['Resource Categories', '/resourceCategories'],
  ['Relations', '/relations'],
  ['Relation Types', '/relationTypes'],
  ['Note Types', '/noteTypes'],
  ['Template Partials', '/templatePartials'],
  ['Series', '/seriesList'],
  ['Shares', '/admin/shares'],
  ['Downloads', '/downloads'],
  ['Export', '/admin/export'],
  ['Import', '/admin/import'],
  ['Settings', '/admin/settings'],
  ['Logs', '/logs'],
  ['Users', '/admin/users'],
];

/** What the viewer may do, from the same route table the request pipeline enforces. */
function permissionOf(req: FastifyRequest): Permission & { page(href: string): boolean } {
  const principal: Principal | null = req.principal ?? null;
  const access = req.server.access;
  const allows = (method: string, path: string) => {
    if (!principal) return false;
    const needs = access?.needsOf(method, path);
    return needs === undefined || can(principal, needs);
  };
  const knows = (method: string, path: string) => access?.needsOf(method, path) !== undefined;
  return { allows, knows, canWrite: principal !== null && can(principal, 'write'), page: (href) => allows('GET', href.split('?')[0]) };
}

/** Members every page's JSON form carries (companion §6.1): who is signed in, and the CSRF token. */
export function pageCommon(req: FastifyRequest): Record<string, unknown> {
  const enabled = authEnabledFor(req);
  const p = req.principal;
  return {
    authEnabled: enabled,
    ...(enabled && p && !p.anonymous ? { currentUser: { userId: p.userId, username: p.username, role: p.role, scopeGroupId: p.scopeGroupId } } : {}),
    csrfToken: csrfTokenOf(req),
  };
}

function AccountMenu(props: { principal: Principal }): SafeHtml {
  return (
    <details class="menu account-menu" data-testid="account-menu">
      <summary>
        <span class="who">{props.principal.username}</span> <span class="role">{props.principal.role}</span>
      </summary>
      <div class="menu-items">
        <a href="/account">Your account</a>
        <form method="post" action="/logout">
          <button type="submit" class="menu-button">
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}

function active(req: FastifyRequest, href: string): boolean {
  const path = req.url.split('?')[0];
  return path === href || (href !== '/' && path.startsWith(href));
}


/** A failed form's message; a duplicate names the existing entity with a link (`errorLink`). */
function ErrorBanner(props: { message: string; req: FastifyRequest }): SafeHtml {
  const link = String((props.req.query as Record<string, unknown> | undefined)?.errorLink ?? '');
  return (
    <div class="error-banner" role="alert">
      {props.message}
      {isSafeRelativePath(link) ? (
        <span>
          {' '}
          <a href={link}>Open the existing one</a>
        </span>
      ) : null}
    </div>
  );
}

function Flash(props: { message: string }): SafeHtml {
  return (
    <div class="notice flash" role="status" data-testid="flash">
      {props.message}
    </div>
  );
}

/** A "Plugins" menu entry (library-plugins.md §20.2). */
export interface PluginMenuItem {
  label: string;
  href: string;
}

/**
 * What the plugin host contributes to every page (library-plugins.md §20.2, §24): the Plugins
 * menu (null hides it: plugin system off, or a signed-out viewer) and the injection slots this
 * request's page shows, rendered before the layout because plugin renders are asynchronous.
 */
export interface LayoutPlugins {
  menu(req: FastifyRequest): PluginMenuItem[] | null;
  slots(req: FastifyRequest): Promise<PageSlots>;
  /** Plugin action buttons for a detail page's entity (with `id`) or a list page's cards and selection. */
  actions(req: FastifyRequest, target: PluginActionTarget): SafeHtml | null;
}

/** What an action's filters are matched against (library-plugins.md §17.3). */
export interface PluginFilterValues {
  contentType?: string;
  /** Resource category of a resource, category of a group. */
  categoryId?: number;
  noteTypeId?: number;
}

/** What plugin actions are offered for (library-plugins.md §17.3): the entity a page shows. */
export interface PluginActionTarget extends PluginFilterValues {
  entity: 'resource' | 'note' | 'group';
  /** The shown entity on a detail page; absent on list pages. */
  id?: number;
}

/** Injected HTML by slot name (head, page_top, sidebar_top, resource_detail_before …). */
export type PageSlots = Readonly<Record<string, string>>;

const NO_SLOTS: PageSlots = {};

/** Which detail or list page this is, for its injection slots (§24). */
function pageSlotPrefix(req: FastifyRequest): { detail?: string; list?: string } {
  const path = req.url.split('?')[0];
  const detail = /^\/(resource|note|group)$/.exec(path)?.[1];
  if (detail) return { detail };
  const list = /^\/(resource|note|group)s$/.exec(path)?.[1];
  return list ? { list } : {};
}

export interface LayoutExtras {
  /** Sidebar content (filters on lists, details on detail pages). */
  sidebar?: SafeHtml;
  /** Primary actions shown next to the heading. */
  actions?: SafeHtml;
  breadcrumb?: SafeHtml;
  /** A detail page's entity, for the plugin actions placed on it. */
  pluginTarget?: PluginActionTarget;
  /** A list page whose path is not `/<entity>s` (the resource table). */
  pluginList?: PluginActionTarget;
}

function PluginsMenu(props: { items: PluginMenuItem[] | null }) {
  if (!props.items || props.items.length === 0) return null;
  return (
    <details class="menu" data-testid="plugins-menu">
      <summary>Plugins</summary>
      <div class="menu-items">
        {props.items.map((i) => (
          <a href={i.href}>{i.label}</a>
        ))}
      </div>
    </details>
  );
}

type LayoutContext = PageContext & { _layout?: LayoutExtras; errorMessage?: string };

/** The layout with the plugin host's menu and slots; `prepare` renders the slots first. */
export function createLayout(plugins: LayoutPlugins): Layout {
  const prepared = new WeakMap<FastifyRequest, PageSlots>();
  const pageLayout: Layout = (ctx, body, req) => renderLayout(ctx as LayoutContext, body, req, plugins, prepared.get(req) ?? NO_SLOTS);
  pageLayout.common = pageCommon;
  pageLayout.prepare = async (req) => {
    prepared.set(req, await plugins.slots(req));
  };
  return pageLayout;
}

/** The layout without plugin contributions (error pages). */
export function layout(ctx: LayoutContext, body: SafeHtml, req: FastifyRequest): SafeHtml {
  return renderLayout(ctx, body, req, null, NO_SLOTS);
}

function Injected(props: { html: string | undefined }): SafeHtml | null {
  return props.html ? raw(props.html) : null;
}

function renderLayout(ctx: LayoutContext, body: SafeHtml, req: FastifyRequest, plugins: LayoutPlugins | null, slots: PageSlots): SafeHtml {
  const extras = ctx._layout ?? {};
  const page = pageSlotPrefix(req);
  const detail = page.detail;
  const pluginMenu = plugins?.menu(req) ?? null;
  const detailActions = plugins && extras.pluginTarget ? plugins.actions(req, extras.pluginTarget) : null;
  const listTarget = extras.pluginList ?? (page.list ? { entity: page.list as PluginActionTarget['entity'] } : undefined);
  const listActions = plugins && listTarget && !ctx.errorMessage ? plugins.actions(req, listTarget) : null;
  const principal: Principal | null = req.principal ?? null;
  const signedOut = !principal || principal.anonymous === true;
  const showAccount = authEnabledFor(req) && !signedOut;
  const permission = permissionOf(req);
  // A super-user may do everything; everyone else sees only what they may use.
  const trim = (html: SafeHtml | undefined) => (html === undefined || !principal || principal.superUser ? html : raw(withoutForbiddenActions(html.html, permission)));
  // Import is refused to group-limited principals whatever their role (the page answers 403).
  const adminItems = ADMIN_MENU.filter(([, href]) => permission.page(href) && (href !== '/admin/import' || (principal !== null && mayImportGroups(principal))));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content={req.credential ? csrfTokenOf(req) : ''} />
        <title>{ctx.pageTitle} - Stacks</title>
        <link rel="icon" href="/public/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/public/index.css" />
        <link rel="stylesheet" href="/public/viewer.css" />
        <link rel="stylesheet" href="/public/pages.css" />
        <script src="/public/csrf.js"></script>
        <script src="/public/picker.js"></script>
        <script defer src="/public/vendor/alpine.min.js"></script>
        <Injected html={slots.head} />
      </head>
      <body>
        <a class="skip" href="#main-content">Skip to content</a>
        <Injected html={slots.page_top} />
        <header class="topbar">
          <a class="brand" href="/dashboard">Stacks</a>
          {signedOut ? null : (
            <button type="button" id="menu-toggle" class="menu-toggle" aria-expanded="false" aria-controls="main-menu">
              <span aria-hidden="true">☰</span> Menu
            </button>
          )}
          {signedOut ? null : (
            <nav aria-label="Main" id="main-menu">
              {MAIN_MENU.filter(([, href]) => permission.page(href)).map(([label, href]) => (
                <a href={href} class={active(req, href) ? 'active' : undefined}>
                  {label}
                </a>
              ))}
              {adminItems.length > 0 ? (
                <details class="menu">
                  <summary>Admin</summary>
                  <div class="menu-items">
                    {adminItems.map(([label, href]) => (
                      <a href={href}>{label}</a>
                    ))}
                  </div>
                </details>
              ) : null}
              <PluginsMenu items={pluginMenu} />
            </nav>
          )}
          {signedOut ? null : (
            <div class="global-search" role="search">
              <input id="global-search" type="search" placeholder="Search (Ctrl+K)" aria-label="Search everything" autocomplete="off" />
              <ul id="global-search-results" class="global-search-results" hidden></ul>
            </div>
          )}
          {showAccount && principal ? <AccountMenu principal={principal} /> : null}
          <script defer src="/public/global-search.js"></script>
          <script defer src="/public/shortcodes.js"></script>
          <script defer src="/public/lightbox.js"></script>
          <script defer src="/public/lightbox-panels.js"></script>
          <script defer src="/public/mentions.js"></script>
          <script defer src="/public/layout.js"></script>
        </header>
        {/* A named region, so the heading and its actions sit in a landmark like the rest. */}
        <section class="title-area" aria-labelledby="page-title">
          {extras.breadcrumb}
          <h1 id="page-title">{ctx.pageTitle}</h1>
          <div class="actions">
            {trim(extras.actions)}
            {detailActions}
          </div>
        </section>
        <div class="page">
          {extras.sidebar ? (
            // Below 900 px the sidebar is a drawer opened by this button (public/layout.js).
            <button type="button" id="sidebar-toggle" class="sidebar-toggle secondary" aria-expanded="false" aria-controls="sidebar">
              Filters and details
            </button>
          ) : null}
          {extras.sidebar ? (
            <aside class="sidebar" id="sidebar" aria-label="Filters and details">
              <button type="button" id="sidebar-close" class="sidebar-close secondary">
                Close
              </button>
              <Injected html={slots.sidebar_top} />
              {trim(extras.sidebar)}
              <Injected html={detail ? slots[`${detail}_detail_sidebar`] : undefined} />
              <Injected html={slots.sidebar_bottom} />
            </aside>
          ) : null}
          <main id="main-content">
            {ctx.errorMessage ? <ErrorBanner message={ctx.errorMessage} req={req} /> : req.flash ? <Flash message={req.flash} /> : null}
            <Injected html={detail ? slots[`${detail}_detail_before`] : page.list ? slots[`${page.list}_list_before`] : undefined} />
            {listActions}
            {trim(body)}
            <Injected html={detail ? slots[`${detail}_detail_after`] : page.list ? slots[`${page.list}_list_after`] : undefined} />
          </main>
        </div>
        <Injected html={slots.page_bottom} />
        <Injected html={slots.scripts} />
      </body>
    </html>
  );
}
