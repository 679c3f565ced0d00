// Pages show only what the viewer may do (companion §6.2): a form posting to a route whose
// capability the principal lacks is left out, and so are links to the create and edit form of
// an entity the principal may not write (`/category/new` follows `POST /v1/category`; an
// entity without such a route needs `write`). The server refuses those requests anyway; this
// keeps the page honest. Our own markup never nests forms, so a form ends at the first </form>.

const FORM = /<form\b([^>]*)>[\s\S]*?<\/form>/g;
const LINK = /<a\b([^>]*)>[\s\S]*?<\/a>/g;
const EDIT_PAGE = /^(\/[^?#]*)\/(new|edit)(?:[?#]|$)/;

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(attrs);
  return m ? m[1].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&') : undefined;
}

export interface Permission {
  /** May the viewer call this route? (unknown routes count as allowed) */
  allows(method: string, path: string): boolean;
  /** Is this route declared at all? */
  knows(method: string, path: string): boolean;
  canWrite: boolean;
}

export function withoutForbiddenActions(html: string, permission: Permission): string {
  const out = html.replace(FORM, (form, attrs: string) => {
    const method = (attr(attrs, 'method') ?? 'get').toUpperCase();
    const action = attr(attrs, 'action');
    if (method !== 'POST' || !action || !action.startsWith('/')) return form;
    return permission.allows('POST', action.split(/[?#]/)[0]) ? form : '';
  });
  return out.replace(LINK, (link, attrs: string) => {
    const entity = EDIT_PAGE.exec(attr(attrs, 'href') ?? '')?.[1];
    if (!entity) return link;
    const write = `/v1${entity}`;
    const may = permission.knows('POST', write) ? permission.allows('POST', write) : permission.canWrite;
    return may ? link : '';
  });
}
