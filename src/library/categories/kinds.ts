// The three "carriers" (companion §5.1): categories type groups, resource categories type
// resources, note types type notes. They share every rule and differ only by their slots, a
// few extra fields and their paths, which this file describes.

export interface CarrierKind {
  table: 'categories' | 'resource_categories' | 'note_types';
  entityType: 'category' | 'resource_category' | 'note_type';
  label: string;
  /** Categories and resource categories have unique names; note types do not. */
  uniqueName: boolean;
  /** Template slots: JSON name → column. */
  slots: Record<string, string>;
  /** Extra free-text fields (AutoDetectRules). */
  texts: Record<string, string>;
  /** Extra boolean fields (ApplyTemplatesToShares). */
  flags: Record<string, string>;
  api: {
    list: string;
    create: string;
    /** A separate update route (note types); otherwise create with ID updates. */
    edit?: string;
    delete: string;
    /** Base path of editName / editDescription. */
    inline: string;
    timeline?: string;
  };
  pages: { list: string; detail: string; title: string };
  /** What a delete answers (contract §11.1): {id} or an entity stub {ID}. */
  deleteReply: 'id' | 'stub';
}

const SHARED_SLOTS = {
  CustomHeader: 'custom_header',
  CustomSidebar: 'custom_sidebar',
  CustomSummary: 'custom_summary',
  CustomAvatar: 'custom_avatar',
  CustomListHeader: 'custom_list_header',
  CustomDetailFooter: 'custom_detail_footer',
  CustomListFooter: 'custom_list_footer',
  CustomHoverCard: 'custom_hover_card',
  CustomMRQLResult: 'custom_mrql_result',
  CustomCSS: 'custom_css',
};

export const CATEGORY: CarrierKind = {
  table: 'categories',
  entityType: 'category',
  label: 'category',
  uniqueName: true,
  slots: { ...SHARED_SLOTS, CustomOwnEntities: 'custom_own_entities' },
  texts: {},
  flags: {},
  api: { list: '/v1/categories', create: '/v1/category', delete: '/v1/category/delete', inline: '/v1/category', timeline: '/v1/categories/timeline' },
  pages: { list: '/categories', detail: '/category', title: 'Categories' },
  deleteReply: 'id',
};

export const RESOURCE_CATEGORY: CarrierKind = {
  table: 'resource_categories',
  entityType: 'resource_category',
  label: 'resource category',
  uniqueName: true,
  slots: { ...SHARED_SLOTS, CustomPreview: 'custom_preview', CustomLightbox: 'custom_lightbox', CustomCell: 'custom_cell' },
  texts: { AutoDetectRules: 'auto_detect_rules' },
  flags: {},
  api: { list: '/v1/resourceCategories', create: '/v1/resourceCategory', delete: '/v1/resourceCategory/delete', inline: '/v1/resourceCategory' },
  pages: { list: '/resourceCategories', detail: '/resourceCategory', title: 'Resource categories' },
  deleteReply: 'id',
};

export const NOTE_TYPE: CarrierKind = {
  table: 'note_types',
  entityType: 'note_type',
  label: 'note type',
  uniqueName: false,
  slots: SHARED_SLOTS,
  texts: {},
  flags: { ApplyTemplatesToShares: 'apply_templates_to_shares' },
  api: { list: '/v1/note/noteTypes', create: '/v1/note/noteType', edit: '/v1/note/noteType/edit', delete: '/v1/note/noteType/delete', inline: '/v1/noteType' },
  pages: { list: '/noteTypes', detail: '/noteType', title: 'Note types' },
  deleteReply: 'stub',
};

export const CARRIERS = [CATEGORY, RESOURCE_CATEGORY, NOTE_TYPE];
