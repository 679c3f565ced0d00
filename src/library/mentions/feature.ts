// Wires mentions → links: one listener on the change bus over the three content kinds.
import type { FeatureHost } from '../context.js';
import type { ContentEntity, ContentKind } from '../common/content.js';
import { contentEdits } from '../massEdit/feature.js';
import { MentionRepository } from './repository.js';
import { MentionLinks } from './service.js';

export function mentionsFeature({ lib }: FeatureHost, kinds: Record<ContentEntity, ContentKind>): void {
  const links = new MentionLinks(new MentionRepository(lib.db, lib.dialect), contentEdits(lib), kinds, lib.config.massEditFilterLimit);
  lib.bus.onAfter((event) => links.onChange(event));
}
