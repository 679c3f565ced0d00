// Wires the metadata key listings: repository → service → routes.
import type { FeatureHost } from '../context.js';
import { MetaKeyRepository } from './repository.js';
import { registerMetaKeyRoutes } from './routes.js';
import { MetaKeyService } from './service.js';

export function metaKeysFeature({ routes, lib }: FeatureHost) {
  registerMetaKeyRoutes(routes, new MetaKeyService(new MetaKeyRepository(lib.db, lib.dialect)));
}
