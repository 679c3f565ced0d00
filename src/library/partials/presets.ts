// Built-in template presets (companion §5.6): starter bundles the edit forms can fill in.
// Content written for this project; the names, carriers and intent follow the companion.

export interface TemplatePreset {
  schemaVersion: 1;
  name: string;
  title: string;
  carrier: 'category' | 'resourceCategory' | 'noteType';
  description: string;
  slots: Partial<Record<'header' | 'sidebar' | 'summary' | 'avatar' | 'mrqlResult' | 'css', string>>;
  metaSchema: string;
  sectionConfig: string;
}

const schema = (properties: Record<string, unknown>) => JSON.stringify({ type: 'object', properties }, null, 2);

export const TEMPLATE_PRESETS: TemplatePreset[] = [
  {
    schemaVersion: 1,
    name: 'contact-card',
    title: 'Contact card (Category)',
    carrier: 'category',
    description: 'People and organisations with an editable email address and phone number.',
    slots: {
      header: '<div class="contact">[meta path="email" editable=true] · [meta path="phone" editable=true]</div>',
      sidebar: '<p>Filed under [property path="Category.Name"]</p>',
      summary: '<strong>[property path="Name"]</strong> [meta path="title" hide-empty=true]',
    },
    metaSchema: schema({ email: { type: 'string', title: 'Email' }, phone: { type: 'string', title: 'Phone' }, title: { type: 'string', title: 'Job title' } }),
    sectionConfig: '',
  },
  {
    schemaVersion: 1,
    name: 'media-collection',
    title: 'Media collection (Resource category)',
    carrier: 'resourceCategory',
    description: 'Films, albums and books: a format line, the credits, and a link back to the owning group.',
    slots: {
      header: '<p class="format">[meta path="format"] · [meta path="year"]</p>',
      sidebar: '<ul class="credits">[each path="credits"]<li>[item]</li>[/each]</ul>',
      summary: '[property path="Name"] ([meta path="year"])',
    },
    metaSchema: schema({ format: { type: 'string' }, year: { type: 'integer' }, credits: { type: 'array', items: { type: 'string' } } }),
    sectionConfig: '',
  },
  {
    schemaVersion: 1,
    name: 'project-dashboard',
    title: 'Project dashboard (Category)',
    carrier: 'category',
    description: 'Projects with a status badge, a count of their files and their start date.',
    slots: {
      header:
        '[conditional path="status" eq="active"]<span class="badge ok">Active</span>[elseif path="status" eq="paused"]<span class="badge">Paused</span>[/conditional] [mrql query="type = resource AND owner = $id" format="count"] files',
      summary: 'Started [property path="CreatedAt"]',
    },
    metaSchema: schema({ status: { type: 'string', enum: ['active', 'paused', 'done'] } }),
    sectionConfig: '',
  },
  {
    schemaVersion: 1,
    name: 'reading-log',
    title: 'Reading log (Note type)',
    carrier: 'noteType',
    description: 'Notes about books read: a rating out of five and the date finished.',
    slots: {
      header: '<p>Rating: [meta path="rating"]/5 · finished [meta path="finished"]</p>',
      summary: '[meta path="rating"]/5',
    },
    metaSchema: schema({ rating: { type: 'integer', minimum: 1, maximum: 5 }, finished: { type: 'string', format: 'date' } }),
    sectionConfig: '',
  },
].sort((a, b) => a.name.localeCompare(b.name)) as TemplatePreset[];
