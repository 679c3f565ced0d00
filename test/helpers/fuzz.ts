// A seeded, time-bounded fuzzer over the routes of an OpenAPI description: malformed JSON,
// multipart and form bodies, odd query strings and headers. It counts requests and 5xx answers
// (printed, so the closing note of issue 12 can cite them) and reports every 5xx it saw.
import fc from 'fast-check';

export interface FuzzRoute {
  method: string;
  path: string;
}

export interface FuzzReport {
  requests: number;
  serverErrors: { route: string; status: number; sample: string }[];
  timeouts: number;
  /** Routes that did not answer within the per-request limit. */
  slow: string[];
}

/** Every method and path of an OpenAPI document, path parameters filled with small ids. */
export function routesOf(spec: { paths: Record<string, Record<string, unknown>> }): FuzzRoute[] {
  const out: FuzzRoute[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1') });
  }
  return out;
}

const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.[\]]{0,12}$/);
const scalar = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(''), fc.constant('-1'), fc.constant('9999999999999999999999'));
const json = fc.oneof(
  fc.constant('{'),
  fc.constant('{"a":'),
  fc.constant('[1,2'),
  fc.constant('nul'),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.dictionary(word, fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 6 }).map((v) => JSON.stringify(v)),
);
const query = fc.array(fc.tuple(word, fc.oneof(fc.string({ maxLength: 16 }), fc.integer().map(String), fc.constant('%'), fc.constant('%zz'))), { maxLength: 5 });

type Body = { contentType?: string; body?: string };
const boundary = 'fuzzBoundary';
const part = fc.tuple(word, fc.oneof(fc.string({ maxLength: 30 }), fc.constant('')), fc.option(fc.string({ maxLength: 12 }), { nil: undefined }));
const multipart = fc.tuple(fc.array(part, { maxLength: 5 }), fc.boolean(), fc.boolean()).map(([parts, close, withBoundary]): Body => {
  let text = '';
  for (const [name, value, filename] of parts) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ''}\r\n\r\n${value}\r\n`;
  }
  if (close) text += `--${boundary}--\r\n`;
  return { contentType: withBoundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data', body: text };
});
const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({}),
  json.map((b) => ({ contentType: 'application/json', body: b })),
  query.map((pairs) => ({ contentType: 'application/x-www-form-urlencoded', body: pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') })),
  multipart,
  fc.tuple(fc.constantFrom('text/plain', 'application/octet-stream', 'application/xml', 'application/json; charset=latin1', 'garbage', 'multipart/mixed'), fc.string({ maxLength: 40 })).map(([contentType, b]) => ({ contentType, body: b })),
);
const headers = fc.record({
  accept: fc.constantFrom('application/json', 'text/html', '*/*', '', 'application/json;q=0,text/html'),
  extra: fc.option(fc.tuple(fc.constantFrom('if-none-match', 'range', 'x-csrf-token', 'origin', 'cookie', 'authorization'), fc.string({ maxLength: 24 })), { nil: undefined }),
});

/** Sends random requests to `routes` for at most `budgetMs`; `send` returns the status. */
export async function fuzzRoutes(
  base: string,
  routes: FuzzRoute[],
  opts: { seed: number; budgetMs: number; fixedHeaders?: Record<string, string> },
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, serverErrors: [], timeouts: 0, slow: [] };
  const deadline = Date.now() + opts.budgetMs;
  const property = fc.asyncProperty(fc.nat(routes.length - 1), query, body, headers, async (i, q, b, h) => {
    if (Date.now() > deadline) return;
    const route = routes[i];
    const qs = q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const url = `${base}${route.path}${qs ? `?${qs}` : ''}`;
    const hdrs: Record<string, string> = { ...opts.fixedHeaders, accept: h.accept };
    if (h.extra) hdrs[h.extra[0]] = h.extra[1].replace(/[^\x20-\x7e]/g, '');
    const hasBody = route.method !== 'GET' && route.method !== 'HEAD' && b.body !== undefined;
    if (hasBody && b.contentType) hdrs['content-type'] = b.contentType;
    report.requests++;
    try {
      const res = await fetch(url, { method: route.method, headers: hdrs, body: hasBody ? b.body : undefined, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      const text = await res.text();
      if (res.status >= 500 && res.status !== 501 && res.status !== 503 && res.status !== 504) {
        report.serverErrors.push({ route: `${route.method} ${route.path}`, status: res.status, sample: `${url} ${JSON.stringify(b).slice(0, 200)} → ${text.slice(0, 200)}` });
      }
    } catch {
      report.timeouts++;
      report.slow.push(`${route.method} ${route.path}`);
    }
  });
  await fc.assert(property, { seed: opts.seed, numRuns: 1_000_000, interruptAfterTimeLimit: opts.budgetMs, markInterruptAsFailure: false });
  return report;
}
