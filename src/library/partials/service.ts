// Template partials (companion §5.5): kebab-case unique names, no inline rename route.
import { badRequest } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { newRowStamp, withChange } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { validName } from '../common/names.js';
import type { PartialRepository, PartialRow } from './repository.js';

export type { PartialRow };

const KEBAB = /^[a-z][a-z0-9-]*$/;

export function partialRecord(row: PartialRow) {
  return { ID: row.id, CreatedAt: row.created_at, UpdatedAt: row.updated_at, Name: row.name, Description: row.description, Content: row.content };
}

export interface PartialWrite {
  ID?: number;
  Name?: string;
  Description?: string;
  Content?: string;
}

function kebabName(raw: string | undefined): string {
  const name = validName(raw);
  if (!KEBAB.test(name)) throw badRequest('must be kebab-case: lowercase letters, digits, and hyphens, starting with a letter');
  return name;
}

export class PartialService {
  readonly named: NamedEntities<'template_partials'>;

  constructor(
    private readonly repo: PartialRepository,
    private readonly deps: NamedDeps,
  ) {
    this.named = new NamedEntities(repo, { entityType: 'template_partial', label: 'template partial', uniqueName: true }, deps);
  }

  async save(actor: Actor, input: PartialWrite): Promise<PartialRow> {
    if (input.ID) return this.update(actor, input.ID, input);
    const name = kebabName(input.Name);
    await this.named.assertNameFree(name);
    return withChange(this.deps.bus, actor, 'create', 'template_partial', async () => {
      const row = await this.repo.insert({ ...newRowStamp(actor), name, description: input.Description ?? '', content: input.Content ?? '' });
      return { id: row.id, name, after: row, result: row };
    });
  }

  private async update(actor: Actor, id: number, input: PartialWrite): Promise<PartialRow> {
    const before = await this.named.require(id);
    const name = input.Name === undefined ? before.name : kebabName(input.Name);
    await this.named.assertNameFree(name, id);
    return withChange(this.deps.bus, actor, 'update', 'template_partial', async () => {
      await this.repo.update(id, { name, description: input.Description ?? before.description, content: input.Content ?? before.content });
      const after = await this.named.require(id);
      return { id, name, before, after, result: after };
    });
  }
}
