-- ImportPlanRepository.byFoldedName (tags)
SELECT
  "id",
  "name",
  "guid"
FROM
  "tags"
WHERE
  lower("name") COLLATE "C" IN ($1, $2)
ORDER BY
  "id";
-- params: ["alpha","beta"]

-- ImportPlanRepository.byGuid (groups)
SELECT
  "id",
  "name",
  "guid"
FROM
  "groups"
WHERE
  "guid" IN ($1);
-- params: ["00000000-0000-4000-8000-000000000000"]

-- ImportPlanRepository.relationTypesByFoldedName
SELECT
  "t"."id",
  "t"."name",
  "t"."guid",
  "t"."from_category_id",
  "t"."to_category_id",
  "f"."name" AS "from_name",
  "c"."name" AS "to_name"
FROM
  "group_relation_types" AS "t"
  LEFT JOIN "categories" AS "f" ON "f"."id" = "t"."from_category_id"
  LEFT JOIN "categories" AS "c" ON "c"."id" = "t"."to_category_id"
WHERE
  lower("t"."name") COLLATE "C" IN ($1)
ORDER BY
  "t"."id";
-- params: ["works on"]

-- ImportPlanRepository.currentHashes
SELECT
  "hash"
FROM
  "resources"
WHERE
  "hash" IN ($1);
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ImportPlanRepository.versionHashes
SELECT
  "hash"
FROM
  "resource_versions"
WHERE
  "hash" IN ($1);
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ImportPlanRepository.seriesBySlug
SELECT
  "id",
  "name",
  "slug"
FROM
  "series"
WHERE
  "slug" IN ($1);
-- params: ["holiday"]

-- ImportPlanRepository.existing (note types)
SELECT
  "id"
FROM
  "note_types"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- ImportPlanRepository.existing (none)
-- (no statement)

-- ImportApplyRepository.guidTaken
SELECT
  "id"
FROM
  "categories"
WHERE
  "guid" = $1;
-- params: ["00000000-0000-4000-8000-000000000000"]

-- ImportApplyRepository.nameTaken
SELECT
  "id"
FROM
  "resource_categories"
WHERE
  "name" = $1;
-- params: ["Scans (2)"]

-- ImportApplyRepository.insertTag
INSERT INTO
  "tags" ("created_at", "updated_at", "created_by_user_id", "guid", "name", "description", "meta")
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","alpha","","{}"]

-- ImportApplyRepository.relationTypeBetween
SELECT
  "id"
FROM
  "group_relation_types"
WHERE
  "name" = $1
  AND "from_category_id" = $2
  AND "to_category_id" = $3;
-- params: ["Works on",1,2]

-- ImportApplyRepository.insertRelationType
INSERT INTO
  "group_relation_types" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "from_category_id",
    "to_category_id",
    "back_relation_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Works on","",1,2,null]

-- ImportApplyRepository.insertCarrier (note types)
INSERT INTO
  "note_types" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "custom_header",
    "section_config",
    "apply_templates_to_shares"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Meeting","","","{}",true]

-- ImportApplyRepository.setBackRelation
UPDATE "group_relation_types"
SET
  "back_relation_id" = $1
WHERE
  "id" = $2;
-- params: [6,5]

-- ImportApplyRepository.idsByGuid (notes)
SELECT
  "id",
  "guid"
FROM
  "notes"
WHERE
  "guid" IN ($1);
-- params: ["00000000-0000-4000-8000-000000000000"]

-- ImportApplyRepository.group
SELECT
  *
FROM
  "groups"
WHERE
  "id" = $1;
-- params: [3]

-- ImportApplyRepository.insertGroup
INSERT INTO
  "groups" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "url",
    "meta",
    "owner_id",
    "category_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Acme","",null,"{}",null,1]

-- ImportApplyRepository.updateGroup
UPDATE "groups"
SET
  "description" = $1,
  "updated_at" = $2
WHERE
  "id" = $3;
-- params: ["root","2024-01-01T00:00:00.000Z",3]

-- ImportApplyRepository.note
SELECT
  *
FROM
  "notes"
WHERE
  "id" = $1;
-- params: [4]

-- ImportApplyRepository.insertNote
INSERT INTO
  "notes" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "meta",
    "owner_id",
    "note_type_id",
    "start_date",
    "end_date"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Kick-off","","{}",3,null,null,null]

-- ImportApplyRepository.updateNote
UPDATE "notes"
SET
  "description" = $1,
  "updated_at" = $2
WHERE
  "id" = $3;
-- params: ["agenda","2024-01-01T00:00:00.000Z",4]

-- ImportApplyRepository.setTags (groups, replacing)
DELETE FROM "group_tags"
WHERE
  "group_id" = $1;
-- params: [3]

INSERT INTO
  "group_tags" ("group_id", "tag_id")
VALUES
  ($1, $2),
  ($3, $4)
ON CONFLICT DO NOTHING;
-- params: [3,7,3,8]

-- ImportApplyRepository.setTags (notes)
INSERT INTO
  "note_tags" ("note_id", "tag_id")
VALUES
  ($1, $2)
ON CONFLICT DO NOTHING;
-- params: [4,7]

-- ImportApplyRepository.hasBlocks
SELECT
  "id"
FROM
  "note_blocks"
WHERE
  "note_id" = $1
LIMIT
  $2;
-- params: [4,1]

-- ImportApplyRepository.deleteBlocks
DELETE FROM "note_blocks"
WHERE
  "note_id" = $1;
-- params: [4]

-- ImportApplyRepository.insertBlocks
INSERT INTO
  "note_blocks" ("created_at", "updated_at", "created_by_user_id", "note_id", "type", "position", "content", "state")
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8);
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,4,"text","n","{\"text\":\"x\"}","{}"]

-- ImportApplyRepository.queryIdByName
SELECT
  "id"
FROM
  "queries"
WHERE
  "name" = $1;
-- params: ["all tags"]

-- ImportApplyRepository.existing
SELECT
  "id"
FROM
  "resources"
WHERE
  "id" IN ($1, $2);
-- params: [10,11]

-- ImportApplyRepository.insertLinks
INSERT INTO
  "resource_notes" ("note_id", "resource_id")
VALUES
  ($1, $2)
ON CONFLICT DO NOTHING;
-- params: [4,10]

-- ImportApplyRepository.groupCategories
SELECT
  "id",
  "category_id"
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [3,5]

-- ImportApplyRepository.relationTypeCategories
SELECT
  "id",
  "from_category_id",
  "to_category_id"
FROM
  "group_relation_types"
WHERE
  "id" IN ($1);
-- params: [5]

-- ImportApplyRepository.insertRelations
INSERT INTO
  "group_relations" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "name",
    "description",
    "from_group_id",
    "to_group_id",
    "relation_type_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT ("from_group_id", "to_group_id", "relation_type_id") DO NOTHING;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"lead","",5,3,5]

-- ImportResourceRepository.withHash
SELECT
  "id",
  "location",
  "storage_location",
  "content_type"
FROM
  "resources"
WHERE
  "hash" = $1
ORDER BY
  "id";
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ImportResourceRepository.versionWithHash
SELECT
  "location",
  "storage_location",
  "content_type"
FROM
  "resource_versions"
WHERE
  "hash" = $1
ORDER BY
  "id";
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ImportResourceRepository.seriesBySlug
SELECT
  "id",
  "slug"
FROM
  "series"
WHERE
  "slug" IN ($1);
-- params: ["holiday"]

-- ImportResourceRepository.insertSeries
INSERT INTO
  "series" ("created_at", "updated_at", "created_by_user_id", "name", "slug", "meta")
VALUES
  ($1, $2, $3, $4, $5, $6)
ON CONFLICT ("slug") DO NOTHING
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"Holiday","holiday","{}"]

-- ImportResourceRepository.seriesIdOf
SELECT
  "id"
FROM
  "series"
WHERE
  "slug" = $1;
-- params: ["holiday"]

-- ImportResourceRepository.seriesMeta
SELECT
  "meta"
FROM
  "series"
WHERE
  "id" = $1;
-- params: [2]

-- ImportResourceRepository.resource
SELECT
  *
FROM
  "resources"
WHERE
  "id" = $1;
-- params: [10]

-- ImportResourceRepository.insertResource
INSERT INTO
  "resources" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "original_name",
    "original_location",
    "hash",
    "hash_type",
    "location",
    "storage_location",
    "description",
    "meta",
    "own_meta",
    "width",
    "height",
    "file_size",
    "category",
    "content_type",
    "content_category",
    "resource_category_id",
    "series_id",
    "owner_id",
    "current_version_id"
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10,
    $11,
    $12,
    $13,
    $14,
    $15,
    $16,
    $17,
    $18,
    $19,
    $20,
    $21,
    $22,
    $23,
    $24
  )
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","logo.png","logo.png","","aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","SHA1","/resources/aa/aa/aa/x.png",null,"","{}","{}",4,4,100,"","image/png","image",1,null,3,null]

-- ImportResourceRepository.updateResource
UPDATE "resources"
SET
  "current_version_id" = $1
WHERE
  "id" = $2;
-- params: [12,10]

-- ImportResourceRepository.insertVersion
INSERT INTO
  "resource_versions" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "resource_id",
    "version_number",
    "hash",
    "hash_type",
    "file_size",
    "content_type",
    "width",
    "height",
    "location",
    "storage_location",
    "comment"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,10,1,"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","SHA1",100,"image/png",4,4,"/resources/aa/aa/aa/x.png",null,"Original"]
