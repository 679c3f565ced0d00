// The page layout: head, header menu, title area, sidebar and main column (companion §6.2).
import type { FastifyRequest } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import type { PageContext } from '../../core/http/pages.js';

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
];

function active(req: FastifyRequest, href: string): boolean {
  const path = req.url.split('?')[0];
  return path === href || (href !== '/' && path.startsWith(href));
}

export interface LayoutExtras {
  /** Sidebar content (filters on lists, details on detail pages). */
  sidebar?: SafeHtml;
  /** Primary actions shown next to the heading. */
  actions?: SafeHtml;
  breadcrumb?: SafeHtml;
}

export function layout(ctx: PageContext & { _layout?: LayoutExtras; errorMessage?: string }, body: SafeHtml, req: FastifyRequest): SafeHtml {
  const extras = ctx._layout ?? {};
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="csrf-token" content="" />
        <title>{ctx.pageTitle} - Stacks</title>
        <link rel="stylesheet" href="/public/index.css" />
        <script src="/public/picker.js"></script>
        <script defer src="/public/vendor/alpine.min.js"></script>
      </head>
      <body>
        <a class="skip" href="#main-content">Skip to content</a>
        <header class="topbar">
          <a class="brand" href="/dashboard">Stacks</a>
          <nav aria-label="Main">
            {MAIN_MENU.map(([label, href]) => (
              <a href={href} class={active(req, href) ? 'active' : undefined}>
                {label}
              </a>
            ))}
            <details class="menu">
              <summary>Admin</summary>
              <div class="menu-items">
                {ADMIN_MENU.map(([label, href]) => (
                  <a href={href}>{label}</a>
                ))}
              </div>
            </details>
          </nav>
          <div class="global-search" role="search">
            <input id="global-search" type="search" placeholder="Search (Ctrl+K)" aria-label="Search everything" autocomplete="off" />
            <ul id="global-search-results" class="global-search-results" hidden></ul>
          </div>
          <script defer src="/public/global-search.js"></script>
          <script defer src="/public/shortcodes.js"></script>
        </header>
        <div class="title-area">
          {extras.breadcrumb}
          <h1>{ctx.pageTitle}</h1>
          <div class="actions">{extras.actions}</div>
        </div>
        <div class="page">
          {extras.sidebar ? <aside class="sidebar">{extras.sidebar}</aside> : null}
          <main id="main-content">
            {ctx.errorMessage ? (
              <div class="error-banner" role="alert">
                {ctx.errorMessage}
              </div>
            ) : null}
            {body}
          </main>
        </div>
      </body>
    </html>
  );
}
