// The repositories of resources, their versions and similarity, built once by feature.ts and
// handed to the services, which join a transaction with `stores.in(tx)`.
import type { Dialect } from '../../core/db/dialect/index.js';
import type { Executor, Tx } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import { SimilarityRepository } from '../similarity/repository.js';
import { VersionRepository } from '../versions/repository.js';
import { ResourceLinkRepository } from './links.repository.js';
import { ResourceReferenceRepository } from './references.repository.js';
import { ResourceRepository } from './repository.js';
import { SeriesMembershipRepository } from './series.repository.js';

export class ResourceStores {
  readonly resources: ResourceRepository;
  readonly links: ResourceLinkRepository;
  readonly refs: ResourceReferenceRepository;
  readonly series: SeriesMembershipRepository;
  readonly versions: VersionRepository;
  readonly similarity: SimilarityRepository;

  constructor(db: Executor<Database>, dialect: Dialect) {
    this.resources = new ResourceRepository(db, dialect);
    this.links = new ResourceLinkRepository(db, dialect);
    this.refs = new ResourceReferenceRepository(db, dialect);
    this.series = new SeriesMembershipRepository(db, dialect);
    this.versions = new VersionRepository(db, dialect);
    this.similarity = new SimilarityRepository(db, dialect);
  }

  /** Every repository running inside `tx`. */
  in(tx: Tx<Database>): ResourceStores {
    const bound = Object.create(ResourceStores.prototype) as ResourceStores;
    return Object.assign(bound, {
      resources: this.resources.in(tx),
      links: this.links.in(tx),
      refs: this.refs.in(tx),
      series: this.series.in(tx),
      versions: this.versions.in(tx),
      similarity: this.similarity.in(tx),
    });
  }
}
