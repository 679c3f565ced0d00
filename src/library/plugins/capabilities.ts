// The 14 capabilities a manifest may request (library-plugins.md §5), in canonical order, with
// the sentences operators see. The labels are part of the API (capability_labels).
export const CAPABILITY_IDS = [
  'db:read',
  'db:write',
  'http',
  'kv',
  'image',
  'hooks',
  'inject',
  'render',
  'pages',
  'api',
  'actions',
  'jobs',
  'schedule',
  'job_events',
] as const;

export type CapabilityId = (typeof CAPABILITY_IDS)[number];

export const CAPABILITY_LABELS: Record<CapabilityId, string> = {
  'db:read': 'Read your library: resources, notes, groups and tags',
  'db:write': 'Create, change and delete library content (which includes reading it) and pull a URL of its choosing into the library',
  http: 'Send network requests to other servers',
  kv: 'Keep its own key-value data',
  image: 'Transform images',
  hooks: 'React to entity changes, and veto them',
  inject: 'Inject HTML and scripts into every page',
  render: 'Render shortcodes, note blocks and metadata displays',
  pages: 'Serve its own pages and add menu entries (a documentation page is generated for every plugin)',
  api: 'Serve its own JSON endpoints',
  actions: 'Add actions to resources, notes and groups',
  jobs: 'Run background jobs',
  schedule: 'Run its own work on a repeating schedule, unprompted',
  job_events: 'See every background job in this deployment finish, whoever started it',
};

export function isCapability(value: string): value is CapabilityId {
  return (CAPABILITY_IDS as readonly string[]).includes(value);
}

/** Declared plus implied (db:write implies db:read), in canonical order (§5.2). */
export function effectiveCapabilities(declared: Iterable<string>): CapabilityId[] {
  const set = new Set(declared);
  if (set.has('db:write')) set.add('db:read');
  return CAPABILITY_IDS.filter((c) => set.has(c));
}

export function capabilityLabels(caps: readonly CapabilityId[]): Record<string, string> {
  return Object.fromEntries(caps.map((c) => [c, CAPABILITY_LABELS[c]]));
}
