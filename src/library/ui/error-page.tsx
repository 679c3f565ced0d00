// The HTML error page (404 with a link to the dashboard, and every other failed page load).
import type { FastifyRequest } from 'fastify';
import { h } from '../../core/html/jsx.js';
import { layout } from './layout.js';

export function errorPage(req: FastifyRequest, status: number, message: string): string {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Forbidden' : 'Something went wrong';
  const body = (
    <section class="error-page">
      <p>{message}</p>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </section>
  );
  return `<!doctype html>\n${layout({ pageTitle: title, errorMessage: undefined }, body, req).html}`;
}
