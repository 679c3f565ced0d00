// /dashboard (companion §12.7): the six newest resources, notes, groups and tags, and an
// activity feed of the 20 newest creations and edits across them, each section one statement.
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { relativeTime } from './dates.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { ActivityRow, DashboardRepository } from './repository.js';
import { visibilityOf } from '../auth/visibility.js';

const RECENT = 6;
const ACTIVITY = 20;

interface Item {
  id: number;
  name: string;
  description: string;
}

const PAGE: Record<ActivityRow['type'], string> = { resource: '/resource', note: '/note', group: '/group', tag: '/tag' };


function Cards(props: { title: string; items: Item[]; page: string; empty: SafeHtml; thumbs?: boolean }): SafeHtml {
  return (
    <section>
      <h2>{props.title}</h2>
      {props.items.length === 0 ? (
        <p class="empty">{props.empty}</p>
      ) : (
        <ul class="cards">
          {props.items.map((i) => (
            <li class="card">
              {props.thumbs ? <img src={`/v1/resource/preview?ID=${i.id}&Height=120`} alt="" loading="lazy" height={120} class="thumb" /> : null}
              <a href={`${props.page}?id=${i.id}`}>{i.name}</a>
              {i.description ? <p>{i.description.length > 160 ? `${i.description.slice(0, 160)}…` : i.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function registerDashboard(app: FastifyInstance, layout: Layout, dashboard: DashboardRepository): void {
  registerPage(app, layout, {
    path: '/dashboard',
    needs: 'read',
    load: async (req) => {
      const vis = visibilityOf(req.principal);
      const [resources, notes, groups, tags, activity] = await Promise.all([
        dashboard.recent('resources', RECENT, vis),
        dashboard.recent('notes', RECENT, vis),
        dashboard.recent('groups', RECENT, vis),
        dashboard.recent('tags', RECENT, vis),
        dashboard.activity(ACTIVITY, vis),
      ]);
      return { pageTitle: 'Dashboard', resources, notes, groups, tags, activity };
    },
    view: (ctx) => {
      const now = Date.now();
      return (
        <div class="dashboard">
          <Cards title="Recent resources" items={ctx.resources} page="/resource" thumbs empty={<span>No resources yet. <a href="/resource/new">Upload files</a>.</span>} />
          <Cards title="Recent notes" items={ctx.notes} page="/note" empty={<span>No notes yet. <a href="/note/new">Write a note</a>.</span>} />
          <Cards title="Recent groups" items={ctx.groups} page="/group" empty={<span>No groups yet. <a href="/group/new">Create a group</a>.</span>} />
          <Cards title="Recent tags" items={ctx.tags} page="/tag" empty={<span>No tags yet. <a href="/tag/new">Create a tag</a>.</span>} />
          <section>
            <h2>Activity</h2>
            <ul class="activity" data-testid="activity">
              {ctx.activity.map((e) => (
                <li>
                  <span class="tag">{e.type}</span> <a href={`${PAGE[e.type]}?id=${e.id}`}>{e.name}</a> {e.action}{' '}
                  <time datetime={e.at} title={e.at}>
                    {relativeTime(e.at, now)}
                  </time>
                </li>
              ))}
            </ul>
          </section>
        </div>
      );
    },
  });
}
