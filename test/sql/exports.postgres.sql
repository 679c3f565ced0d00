-- ExportRepository.scopeTree
WITH RECURSIVE
  tree (id) AS (
    SELECT
      id
    FROM
      "groups"
    WHERE
      id = $1
    UNION
    SELECT
      g.id
    FROM
      "groups" g
      JOIN tree ON g.owner_id = tree.id
  )
SELECT
  id
FROM
  tree;
-- params: [3]

-- ExportRepository.subtree
WITH RECURSIVE
  tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      "groups"
    WHERE
      id IN ($1, $2)
    UNION
    SELECT
      g.id,
      tree.depth + 1
    FROM
      "groups" g
      JOIN tree ON g.owner_id = tree.id
    WHERE
      tree.depth < 1000
  )
SELECT
  id,
  MIN(depth) AS depth
FROM
  tree
GROUP BY
  id
ORDER BY
  MIN(depth),
  id;
-- params: [1,2]

-- ExportRepository.groupItems
SELECT
  "id",
  "name",
  "guid",
  "owner_id",
  "category_id"
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- ExportRepository.groupNames
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1);
-- params: [1]

-- ExportRepository.groupNames (none)
-- (no statement)

-- ExportRepository.ownedNotes
SELECT
  "id",
  "name",
  "guid",
  "owner_id",
  "note_type_id"
FROM
  "notes"
WHERE
  "owner_id" IN ($1, $2);
-- params: [1,2]

-- ExportRepository.ownedResources
SELECT
  "id",
  "name",
  "guid",
  "owner_id",
  "hash",
  "file_size",
  "location",
  "storage_location",
  "series_id",
  "resource_category_id"
FROM
  "resources"
WHERE
  "owner_id" IN ($1, $2);
-- params: [1,2]

-- ExportRepository.seriesItems
SELECT
  "id",
  "name",
  "slug"
FROM
  "series"
WHERE
  "id" IN ($1);
-- params: [4]

-- ExportRepository.seriesMembers
SELECT
  "id",
  "series_id"
FROM
  "resources"
WHERE
  "series_id" IN ($1)
ORDER BY
  "id";
-- params: [4]

-- ExportRepository.versions
SELECT
  *
FROM
  "resource_versions"
WHERE
  "resource_id" IN ($1, $2)
ORDER BY
  "resource_id",
  "version_number";
-- params: [10,11]

-- ExportRepository.relationTypesFrom
SELECT DISTINCT
  "relation_type_id"
FROM
  "group_relations"
WHERE
  "from_group_id" IN ($1, $2);
-- params: [1,2]

-- ExportRepository.backRelations
SELECT
  "back_relation_id"
FROM
  "group_relation_types"
WHERE
  "id" IN ($1);
-- params: [5]

-- ExportRepository.relationTypeItems
SELECT
  "id",
  "name",
  "guid",
  "from_category_id",
  "to_category_id"
FROM
  "group_relation_types"
WHERE
  "id" IN ($1, $2)
ORDER BY
  "id";
-- params: [5,6]

-- ExportRepository.vocabularyItems (note types)
SELECT
  "id",
  "name",
  "guid"
FROM
  "note_types"
WHERE
  "id" IN ($1)
ORDER BY
  "id";
-- params: [2]

-- ExportRepository.tagIdsOf (resources)
SELECT DISTINCT
  "tag_id"
FROM
  "resource_tags"
WHERE
  "resource_id" IN ($1, $2);
-- params: [10,11]

-- ExportRepository.ownedStubs (notes)
SELECT
  "id",
  "name",
  "owner_id"
FROM
  "notes"
WHERE
  "id" IN ($1);
-- params: [20]

-- ExportRepository.relatedGroupsOf
SELECT
  *
FROM
  "group_related_groups"
WHERE
  "group_id" IN ($1)
ORDER BY
  "group_id",
  "related_group_id";
-- params: [1]

-- ExportRepository.groupResourcesOf
SELECT
  *
FROM
  "groups_related_resources"
WHERE
  "group_id" IN ($1)
ORDER BY
  "group_id",
  "resource_id";
-- params: [1]

-- ExportRepository.groupNotesOf
SELECT
  *
FROM
  "groups_related_notes"
WHERE
  "group_id" IN ($1)
ORDER BY
  "group_id",
  "note_id";
-- params: [1]

-- ExportRepository.noteResourcesOf
SELECT
  *
FROM
  "resource_notes"
WHERE
  "note_id" IN ($1)
ORDER BY
  "note_id",
  "resource_id";
-- params: [20]

-- ExportRepository.noteGroupsOf
SELECT
  *
FROM
  "groups_related_notes"
WHERE
  "note_id" IN ($1)
ORDER BY
  "note_id",
  "group_id";
-- params: [20]

-- ExportRepository.resourceGroupsOf
SELECT
  *
FROM
  "groups_related_resources"
WHERE
  "resource_id" IN ($1)
ORDER BY
  "resource_id",
  "group_id";
-- params: [10]

-- ExportRepository.resourceNotesOf
SELECT
  *
FROM
  "resource_notes"
WHERE
  "resource_id" IN ($1)
ORDER BY
  "resource_id",
  "note_id";
-- params: [10]

-- ExportRepository.relationsFrom
SELECT
  "r"."id",
  "r"."from_group_id",
  "r"."to_group_id",
  "r"."name",
  "r"."description",
  "r"."relation_type_id",
  "t"."name" AS "type_name",
  "t"."from_category_id",
  "t"."to_category_id"
FROM
  "group_relations" AS "r"
  INNER JOIN "group_relation_types" AS "t" ON "t"."id" = "r"."relation_type_id"
WHERE
  "r"."from_group_id" IN ($1, $2)
ORDER BY
  "r"."from_group_id",
  "r"."id";
-- params: [1,2]

-- ExportRepository.tagsOf (groups)
SELECT
  "j"."group_id" AS "owner",
  "tags"."id",
  "tags"."name"
FROM
  "group_tags" AS "j"
  INNER JOIN "tags" ON "tags"."id" = "j"."tag_id"
WHERE
  "j"."group_id" IN ($1, $2)
ORDER BY
  "tags"."name";
-- params: [1,2]

-- ExportRepository.groups
SELECT
  *
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- ExportRepository.notes
SELECT
  *
FROM
  "notes"
WHERE
  "id" IN ($1);
-- params: [20]

-- ExportRepository.blocks
SELECT
  *
FROM
  "note_blocks"
WHERE
  "note_id" IN ($1, $2)
ORDER BY
  "note_id",
  "position",
  "id";
-- params: [20,21]

-- ExportRepository.resources
SELECT
  *
FROM
  "resources"
WHERE
  "id" IN ($1);
-- params: [10]

-- ExportRepository.series
SELECT
  *
FROM
  "series"
WHERE
  "id" IN ($1);
-- params: [4]

-- ExportRepository.tags
SELECT
  *
FROM
  "tags"
WHERE
  "id" IN ($1);
-- params: [7]

-- ExportRepository.relationTypes
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "id" IN ($1);
-- params: [5]

-- ExportRepository.carriers (resource categories)
SELECT
  *
FROM
  "resource_categories"
WHERE
  "id" IN ($1);
-- params: [1]

-- ExportRepository.names (saved queries)
SELECT
  "id",
  "name"
FROM
  "queries"
WHERE
  "id" IN ($1);
-- params: [3]
