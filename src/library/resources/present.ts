// Fills resource records with their associations: a page of resources gets Tags, Owner,
// resourceCategory and series (one statement each, four at most); the single read adds Notes,
// Groups, versions and the image hash.
import type { Visibility } from '../auth/visibility.js';
import { parseJson } from '../../core/db/values.js';
import { groupRecord } from '../groups/records.js';
import type { SimilarityRepository } from '../similarity/repository.js';
import { tagRecord, type TagService } from '../tags/service.js';
import type { VersionRepository } from '../versions/repository.js';
import type { ResourceLinkRepository } from './links.repository.js';
import { resourceRecord, versionRecord, type ResourceRecord, type ResourceRow } from './records.js';
import type { ResourceReferenceRepository } from './references.repository.js';
import type { SeriesMembershipRepository } from './series.repository.js';

export interface PresenterDeps {
  links: ResourceLinkRepository;
  refs: ResourceReferenceRepository;
  series: SeriesMembershipRepository;
  versions: VersionRepository;
  similarity: SimilarityRepository;
  tags: TagService;
}

const present = <T>(values: (T | null)[]) => [...new Set(values.filter((v): v is T => v !== null))];

export class ResourcePresenter {
  constructor(private readonly deps: PresenterDeps) {}

  /** A page of resources with Tags, Owner, resourceCategory and series. */
  async page(rows: readonly ResourceRow[]): Promise<ResourceRecord[]> {
    if (rows.length === 0) return [];
    const { links, refs, series, tags } = this.deps;
    const [tagsBy, owners, cats, seriesRows] = await Promise.all([
      tags.tagsOf('resource', rows.map((r) => r.id)),
      links.groups(present(rows.map((r) => r.owner_id))),
      refs.categories(present(rows.map((r) => r.resource_category_id))),
      series.byIds(present(rows.map((r) => r.series_id))),
    ]);
    const ownerBy = new Map(owners.map((g) => [g.id, groupRecord(g)]));
    const catBy = new Map(cats.map((c) => [c.id, { ID: c.id, Name: c.name, Description: c.description }]));
    const seriesBy = new Map(seriesRows.map((s) => [s.id, { ID: s.id, Name: s.name, Slug: s.slug, Meta: parseJson<Record<string, unknown>>(s.meta, {}) }]));
    return rows.map((r) => {
      const rec = resourceRecord(r);
      rec.Tags = (tagsBy.get(r.id) ?? []).map(tagRecord);
      rec.Owner = r.owner_id === null ? null : (ownerBy.get(r.owner_id) ?? null);
      rec.resourceCategory = catBy.get(r.resource_category_id) ?? null;
      rec.series = r.series_id === null ? null : (seriesBy.get(r.series_id) ?? null);
      return rec;
    });
  }

  /** The single read: everything a list shows plus Notes, Groups, versions and the image hash. */
  async one(row: ResourceRow, vis: Visibility): Promise<ResourceRecord> {
    const { links, versions, similarity } = this.deps;
    const [[rec], notes, groups, versionRows, hash] = await Promise.all([
      this.page([row]),
      links.notesOf(row.id, vis),
      links.relatedGroupsOf(row.id, vis),
      versions.listFor(row.id),
      similarity.hashOf(row.id),
    ]);
    rec.Notes = notes.map((n) => ({ ID: n.id, Name: n.name }));
    rec.Groups = groups.map(groupRecord);
    rec.versions = versionRows.map(versionRecord);
    rec.currentVersion = rec.versions.find((v) => v.id === row.current_version_id) ?? null;
    rec.imageHash = hash
      ? { aHash: hash.a_hash, dHash: hash.d_hash, hashVersion: hash.hash_version, status: hash.status, pChunks: [hash.p_chunk0, hash.p_chunk1, hash.p_chunk2, hash.p_chunk3] }
      : null;
    return rec;
  }
}
