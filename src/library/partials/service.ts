// Template partials (companion §5.5): kebab-case unique names, no inline rename route.
import { badRequest, conflict } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange, type Row } from '../common/crud.js';
import { validName } from '../common/names.js';

const KEBAB = /^[a-z][a-z0-9-]*$/;

export type PartialRow = Row<'template_partials'>;

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
  readonly crud: Crud<'template_partials'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'template_partials',
      entityType: 'template_partial',
      label: 'template partial',
      sort: { columns: ['id', 'name', 'description', 'created_at', 'updated_at'], meta: false },
    });
  }

  private async checkFree(name: string, id?: number): Promise<void> {
    const clash = await this.crud.findByName(name);
    if (clash && clash.id !== id) throw conflict(`a template partial named "${name}" already exists`);
  }

  async save(actor: Actor, input: PartialWrite) {
    if (input.ID) return this.update(actor, input.ID, input);
    const name = kebabName(input.Name);
    await this.checkFree(name);
    return withChange(this.lib, actor, 'create', 'template_partial', async () => {
      const row = await this.lib.db
        .insertInto('template_partials')
        .values({ ...newRowStamp(actor), name, description: input.Description ?? '', content: input.Content ?? '' })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, name, after: row, result: row as PartialRow };
    });
  }

  private async update(actor: Actor, id: number, input: PartialWrite) {
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : kebabName(input.Name);
    await this.checkFree(name, id);
    return withChange(this.lib, actor, 'update', 'template_partial', async () => {
      await this.crud.update(id, { name, description: input.Description ?? before.description, content: input.Content ?? before.content });
      const after = await this.crud.require(id);
      return { id, name, before, after, result: after };
    });
  }
}
