// Metadata key listings (companion §4.1): the distinct top-level keys of one content table.
import type { MetaKeyRepository, MetaKeyTable } from './repository.js';

export type { MetaKeyTable };

export class MetaKeyService {
  constructor(private readonly repo: MetaKeyRepository) {}

  /** Distinct top-level keys, alphabetical, as `{key}` records. */
  async keys(table: MetaKeyTable): Promise<{ key: string }[]> {
    return (await this.repo.keys(table)).map((key) => ({ key }));
  }
}
