// The shortcode catalogue of GET /v1/shortcodes/docs (companion §5.7): every built-in shortcode of
// §5.3 described for template editors, followed by the documented shortcodes of the plugins the
// caller may reach. The built-in entries are data, written here once.

export interface ShortcodeAttrDoc {
  name: string;
  type?: string;
  required: boolean;
  default?: string;
  description?: string;
  enum?: string[];
  /** A name pattern (`param-*`) rather than one attribute. */
  wildcard?: boolean;
}

export interface ShortcodeExampleDoc {
  title?: string;
  code: string;
  notes?: string;
}

export interface ShortcodeDoc {
  name: string;
  syntax: string;
  description: string;
  isBlock: 'no' | 'optional' | 'required';
  source: 'builtin' | 'plugin';
  attrs: ShortcodeAttrDoc[];
  examples: ShortcodeExampleDoc[];
}

const attr = (name: string, description: string, more: Partial<ShortcodeAttrDoc> = {}): ShortcodeAttrDoc => ({ name, required: false, type: 'string', description, ...more });
const bool = (name: string, description: string, dflt = 'false'): ShortcodeAttrDoc => attr(name, description, { type: 'boolean', default: dflt });
const FORMATS = ['date', 'datetime', 'time', 'filesize'];

export const BUILTIN_SHORTCODES: readonly ShortcodeDoc[] = [
  {
    name: 'meta',
    syntax: '[meta path="a.b"]',
    description: "Shows one value of the entity's metadata, rendered from its schema; editable in place unless turned off.",
    isBlock: 'no',
    source: 'builtin',
    attrs: [attr('path', 'Dot path into the metadata', { required: true }), bool('editable', 'Show a pencil to edit the value', 'true'), bool('hide-empty', 'Hide when the value is missing'), attr('default', 'Text shown when the value is missing')],
    examples: [{ title: 'Editable email', code: '[meta path="contact.email"]' }],
  },
  {
    name: 'property',
    syntax: '[property path="Name"]',
    description: 'Prints a field of the entity record, following loaded links with dots (Owner.Name, Tags.0.Name).',
    isBlock: 'no',
    source: 'builtin',
    attrs: [
      attr('path', 'Field name or dot path', { required: true }),
      bool('raw', 'Insert without escaping'),
      attr('default', 'Text shown when the field is empty'),
      attr('format', 'How to format times and sizes', { enum: FORMATS }),
      attr('layout', 'Go time layout, e.g. "Jan 2, 2006"; wins over format'),
    ],
    examples: [{ title: 'Creation date', code: '[property path="CreatedAt" format="date"]' }],
  },
  {
    name: 'mrql',
    syntax: '[mrql query="…"] or [mrql query="…"]item template[/mrql]',
    description: 'Runs an MRQL query and renders the results; a body is the template of each item, with [header], [footer] and [else] parts.',
    isBlock: 'optional',
    source: 'builtin',
    attrs: [
      attr('query', 'MRQL text (or use saved)'),
      attr('saved', 'Name of a saved MRQL query (or use query)'),
      attr('format', 'Result layout', { enum: ['table', 'list', 'compact', 'custom'] }),
      attr('value', 'Print one scalar instead: count, or a column of an aggregated result'),
      attr('layout', 'Go time layout for a value= time'),
      attr('limit', 'Maximum results', { type: 'number', default: '20' }),
      attr('buckets', 'Buckets of a bucketed GROUP BY', { type: 'number', default: '5' }),
      attr('scope', 'entity, parent, root, global or a group id', { default: 'entity' }),
      bool('link-all', 'Append a "View all" link'),
      attr('param-*', 'Binds the $name placeholder of the query', { wildcard: true }),
    ],
    examples: [
      { title: 'Recent notes as a list', code: '[mrql query="type = note ORDER BY created DESC" format="list" limit="5"]' },
      { title: 'Count', code: '[mrql query="type = resource" value="count"]' },
    ],
  },
  {
    name: 'conditional',
    syntax: '[conditional path="status" eq="done"]…[elseif …]…[else]…[/conditional]',
    description: 'Renders the first branch whose condition holds; sources are a metadata path, an entity field or an MRQL query.',
    isBlock: 'required',
    source: 'builtin',
    attrs: [
      attr('path', 'Metadata dot path to test'),
      attr('field', 'Top-level entity field to test'),
      attr('mrql', 'MRQL query whose count (or aggregate) is tested'),
      attr('aggregate', 'Column of an aggregated MRQL result'),
      ...['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'in', 'contains', 'matches'].map((op) => attr(op, `Operator ${op}`)),
      bool('empty', 'True when the value is empty'),
      bool('not-empty', 'True when the value is present'),
      attr('combine', 'How several conditions fold', { enum: ['all', 'any'], default: 'all' }),
    ],
    examples: [{ title: 'Status badge', code: '[conditional path="status" eq="done"]Done[else]Open[/conditional]' }],
  },
  {
    name: 'link',
    syntax: '[link to="owner"] or [link to="owner"]text[/link]',
    description: 'The address of a related page; with a body, a link around it.',
    isBlock: 'optional',
    source: 'builtin',
    attrs: [attr('to', 'Which page', { enum: ['self', 'owner', 'root', 'category'], default: 'self' })],
    examples: [{ code: '[link to="owner"]Back to the group[/link]' }],
  },
  {
    name: 'each',
    syntax: '[each path="list"]…[item]…[else]…[/each]',
    description: 'Repeats its body for every element of a metadata array.',
    isBlock: 'required',
    source: 'builtin',
    attrs: [attr('path', 'Metadata dot path of the array', { required: true }), attr('limit', 'Maximum elements', { type: 'number', default: '100' })],
    examples: [{ code: '[each path="credits"]<li>[item path="name"]</li>[/each]' }],
  },
  {
    name: 'item',
    syntax: '[item path="name"]',
    description: 'The current element of the nearest [each], or a dot path into it.',
    isBlock: 'no',
    source: 'builtin',
    attrs: [
      attr('path', 'Dot path into the element'),
      bool('index', 'Print the 1-based position instead'),
      attr('format', 'As for [property]', { enum: FORMATS }),
      attr('layout', 'Go time layout'),
      attr('default', 'Text shown when empty'),
      bool('raw', 'Insert without escaping'),
    ],
    examples: [{ code: '[each path="tags"][item index="true"]. [item][/each]' }],
  },
  {
    name: 'partial',
    syntax: '[partial name="kebab-name"]',
    description: 'Expands a template partial in the current entity context.',
    isBlock: 'no',
    source: 'builtin',
    attrs: [attr('name', 'Name of the partial', { required: true })],
    examples: [{ code: '[partial name="contact-line"]' }],
  },
  {
    name: 'lazy',
    syntax: '[lazy]…[/lazy]',
    description: 'Renders its body in the browser when it scrolls near the viewport.',
    isBlock: 'required',
    source: 'builtin',
    attrs: [],
    examples: [{ code: '[lazy][mrql query="type = resource"][/lazy]' }],
  },
  {
    name: 'details',
    syntax: '[details summary="Details"]…[/details]',
    description: 'A disclosure whose body is rendered on first open.',
    isBlock: 'required',
    source: 'builtin',
    attrs: [attr('summary', 'Text of the disclosure', { default: 'Details' }), bool('open', 'Start open')],
    examples: [{ code: '[details summary="All resources"][mrql query="type = resource"][/details]' }],
  },
  {
    name: 'reload',
    syntax: '[reload label="Reload"] or [reload]face[/reload]',
    description: 'A button that renders the surrounding [lazy] or [details] block, the slot, or the page again.',
    isBlock: 'optional',
    source: 'builtin',
    attrs: [attr('label', 'Button text', { default: 'Reload' })],
    examples: [{ code: '[lazy][mrql query="type = note" value="count"] [reload][/lazy]' }],
  },
];
