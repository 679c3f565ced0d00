-- ResourceRepository.find
SELECT
  *
FROM
  "resources"
WHERE
  "resources"."id" = $1
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [7,3]

-- ResourceRepository.findByName
SELECT
  *
FROM
  "resources"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["photo.jpg"]

-- ResourceRepository.findMany
SELECT
  *
FROM
  "resources"
WHERE
  "resources"."id" IN ($1, $2, $3)
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $4
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "resources"."id";
-- params: [1,2,3,3]

-- ResourceRepository.page (no filter)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "resources".*
FROM
  "resources"
WHERE
  resources.owner_id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $1
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $2
OFFSET
  $3;
-- params: [3,50,0]

-- ResourceRepository.page (small subtree: group by group on PostgreSQL)
SELECT
  "resources".*
FROM
  "resources"
WHERE
  "resources"."id" IN (
    SELECT
      "resources"."id" AS "id"
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) AS "scope_group"
      INNER JOIN LATERAL (
        SELECT
          "resources".*
        FROM
          "resources"
        WHERE
          "resources"."name" ILIKE CAST($2 AS text) ESCAPE '\'
          AND "resources"."owner_id" = scope_group.id
        ORDER BY
          "resources"."created_at" DESC,
          "resources"."id" DESC
        LIMIT
          $3
      ) AS "resources" ON TRUE
    ORDER BY
      "resources"."created_at" DESC,
      "resources"."id" DESC
    LIMIT
      $4
    OFFSET
      $5
  )
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC;
-- params: [3,"%hol%",150,50,100]

-- ResourceRepository.page (text, types, dates, owner, links, exact values, sizes)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "resources".*
FROM
  "resources"
WHERE
  "resources"."name" ILIKE CAST($1 AS text) ESCAPE '\'
  AND "resources"."description" ILIKE CAST($2 AS text) ESCAPE '\'
  AND "resources"."content_type" ILIKE CAST($3 AS text) ESCAPE '\'
  AND "resources"."content_type" IN ($4)
  AND "resources"."created_at" <= $5
  AND "resources"."created_at" >= $6
  AND "resources"."updated_at" <= $7
  AND "resources"."updated_at" >= $8
  AND "resources"."owner_id" = $9
  AND EXISTS (
    SELECT
      1
    FROM
      resource_tags rt
    WHERE
      rt.resource_id = resources.id
      AND rt.tag_id = $10
  )
  AND EXISTS (
    SELECT
      1
    FROM
      resource_tags rt
    WHERE
      rt.resource_id = resources.id
      AND rt.tag_id = $11
  )
  AND (
    resources.owner_id = $12
    OR EXISTS (
      SELECT
        1
      FROM
        groups_related_resources rr
      WHERE
        rr.resource_id = resources.id
        AND rr.group_id = $13
    )
  )
  AND EXISTS (
    SELECT
      1
    FROM
      resource_notes rn
    WHERE
      rn.resource_id = resources.id
      AND rn.note_id = $14
  )
  AND "resources"."id" IN ($15, $16)
  AND "resources"."original_name" = $17
  AND "resources"."original_location" = $18
  AND "resources"."hash" = $19
  AND "resources"."width" >= $20
  AND "resources"."width" <= $21
  AND "resources"."height" >= $22
  AND "resources"."height" <= $23
  AND "resources"."resource_category_id" = $24
  AND "resources"."series_id" = $25
  AND resources.owner_id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $26
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "resources"."file_size" DESC NULLS LAST,
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $27
OFFSET
  $28;
-- params: ["%hol%","%trip%","%image/%","image/jpeg","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-11-30T00:00:00.000Z","2024-02-01T00:00:00.000Z",3,4,5,6,6,7,8,9,"a.jpg","http://example.org/a.jpg","abc",10,20,30,40,2,11,3,20,40]

-- ResourceRepository.page (subgroups, untagged, without owner, meta sort)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "resources".*
FROM
  "resources"
WHERE
  resources.owner_id IN (
    WITH RECURSIVE
      sub (id) AS (
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
          JOIN sub ON g.owner_id = sub.id
      )
    SELECT
      id
    FROM
      sub
  )
  AND "resources"."owner_id" IS NULL
  AND NOT EXISTS (
    SELECT
      1
    FROM
      resource_tags rt
    WHERE
      rt.resource_id = resources.id
  )
  AND resources.owner_id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $2
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  ("resources"."meta" #>> '{n}') ASC NULLS LAST,
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: [3,3,50,0]

-- ResourceRepository.page (similar, dHash zero, MetaQuery, MRQL predicate)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "resources".*
FROM
  "resources"
WHERE
  resources.width > $1
  AND (
    EXISTS (
      SELECT
        1
      FROM
        resource_similarities p
      WHERE
        (
          p.resource_id1 = resources.id
          OR p.resource_id2 = resources.id
        )
        AND COALESCE(p.p_distance, p.hamming_distance) <= $2
        AND (
          p.a_distance IS NULL
          OR p.a_distance <= $3
        )
    )
    OR EXISTS (
      SELECT
        1
      FROM
        image_hashes h1
        JOIN image_hashes h2 ON h2.d_hash = h1.d_hash
        AND h2.resource_id <> h1.resource_id
      WHERE
        h1.resource_id = resources.id
        AND h1.d_hash <> ''
        AND h1.status = 'ok'
        AND h2.status = 'ok'
    )
  )
  AND EXISTS (
    SELECT
      1
    FROM
      image_hashes h
    WHERE
      h.resource_id = resources.id
      AND (
        h.d_hash_int = 0
        OR h.d_hash = '0000000000000000'
      )
  )
  AND ((("resources"."meta" #> '{n}') = CAST($4 AS jsonb)))
  AND resources.owner_id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $5
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $6
OFFSET
  $7;
-- params: [100,6,4,"42",3,50,0]

-- ResourceRepository.servesFile (confined)
SELECT
  "v"."id"
FROM
  "resource_versions" AS "v"
  INNER JOIN "resources" AS "r" ON "r"."id" = "v"."resource_id"
WHERE
  "v"."location" IN ($1, $2)
  AND v.storage_location IS NULL
  AND "r"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
LIMIT
  $4;
-- params: ["ab/cd/abcd.png","/ab/cd/abcd.png",3,1]

SELECT
  "r"."id"
FROM
  "resources" AS "r"
WHERE
  "r"."location" IN ($1, $2)
  AND r.storage_location IS NULL
  AND "r"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
LIMIT
  $4;
-- params: ["ab/cd/abcd.png","/ab/cd/abcd.png",3,1]

-- ResourceRepository.servesFile (alternative filesystem, confined)
SELECT
  "v"."id"
FROM
  "resource_versions" AS "v"
  INNER JOIN "resources" AS "r" ON "r"."id" = "v"."resource_id"
WHERE
  "v"."location" IN ($1, $2)
  AND v.storage_location = $3
  AND "r"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $4
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
LIMIT
  $5;
-- params: ["ab/cd/abcd.png","/ab/cd/abcd.png","archive",3,1]

SELECT
  "r"."id"
FROM
  "resources" AS "r"
WHERE
  "r"."location" IN ($1, $2)
  AND r.storage_location = $3
  AND "r"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $4
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
LIMIT
  $5;
-- params: ["ab/cd/abcd.png","/ab/cd/abcd.png","archive",3,1]

-- ResourceRepository.count
SELECT
  count(*) AS "n"
FROM
  "resources"
WHERE
  EXISTS (
    SELECT
      1
    FROM
      resource_tags rt
    WHERE
      rt.resource_id = resources.id
      AND rt.tag_id = $1
  )
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [4,3]

-- ResourceRepository.timeline
SELECT
  sum(
    CASE
      WHEN "resources"."created_at" >= $1
      AND "resources"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "resources"."updated_at" >= $3
      AND "resources"."updated_at" < $4
      AND "resources"."updated_at" > "resources"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "resources"
WHERE
  "resources"."name" ILIKE CAST($5 AS text) ESCAPE '\'
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $6
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND (
    (
      "resources"."created_at" >= $7
      AND "resources"."created_at" < $8
    )
    OR (
      "resources"."updated_at" >= $9
      AND "resources"."updated_at" < $10
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","%hol%",3,"2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- ResourceRepository.matchingIds
SELECT
  "resources"."id"
FROM
  "resources"
WHERE
  "resources"."owner_id" = $1
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "resources"."id"
LIMIT
  $3;
-- params: [3,3,2]

-- ResourceRepository.idWithHash
SELECT
  "id"
FROM
  "resources"
WHERE
  "hash" = $1
ORDER BY
  "id";
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ResourceRepository.findAt (main filesystem)
SELECT
  *
FROM
  "resources"
WHERE
  "location" = $1
  AND "storage_location" IS NULL
ORDER BY
  "id";
-- params: ["/in/photo.jpg"]

-- ResourceRepository.findAt (alternative filesystem)
SELECT
  *
FROM
  "resources"
WHERE
  "location" = $1
  AND "storage_location" = $2
ORDER BY
  "id";
-- params: ["/in/photo.jpg","archive"]

-- ResourceRepository.usesFile (main filesystem)
SELECT
  "id"
FROM
  "resources"
WHERE
  "location" = $1
  AND "storage_location" IS NULL
LIMIT
  $2;
-- params: ["/resources/aa.jpg",1]

-- ResourceRepository.usesFile (alternative filesystem)
SELECT
  "id"
FROM
  "resources"
WHERE
  "location" = $1
  AND "storage_location" = $2
LIMIT
  $3;
-- params: ["/resources/aa.jpg","archive",1]

-- ResourceRepository.insert
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
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","photo.jpg","photo.jpg","","aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","SHA1","/resources/aa/aa/aa/aaaa.jpg",null,"","{}","{}",800,600,12345,"","image/jpeg","image",1,null,null,null]

-- ResourceRepository.update
UPDATE "resources"
SET
  "name" = $1,
  "width" = $2,
  "updated_at" = $3
WHERE
  "resources"."id" = $4
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $5
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: ["renamed",10,"2024-06-01T12:00:00.000Z",7,3]

-- ResourceRepository.patch
UPDATE "resources"
SET
  "current_version_id" = $1
WHERE
  "id" = $2;
-- params: [9,7]

-- ResourceRepository.remove
DELETE FROM "resources"
WHERE
  "resources"."id" IN ($1, $2)
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [4,5,3]

-- ResourceRepository.videosAfter
SELECT
  "id",
  "content_type"
FROM
  "resources"
WHERE
  "content_type" LIKE $1
  AND "id" > $2
ORDER BY
  "id"
LIMIT
  $3;
-- params: ["video/%",100,25]

-- ResourceLinkRepository.existing
SELECT
  "tags"."id"
FROM
  "tags"
WHERE
  "tags"."id" IN ($1, $2);
-- params: [1,2]

-- ResourceLinkRepository.existing (none asked)
-- (no statement)

-- ResourceLinkRepository.replace (tags)
DELETE FROM "resource_tags"
WHERE
  "resource_id" = $1;
-- params: [7]

INSERT INTO
  "resource_tags" ("resource_id", "tag_id")
VALUES
  ($1, $2),
  ($3, $4);
-- params: [7,1,7,2]

-- ResourceLinkRepository.replace (groups, emptied)
DELETE FROM "groups_related_resources"
WHERE
  "resource_id" = $1
  AND (
    "groups_related_resources"."group_id" IN (
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $2
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
    OR NOT EXISTS (
      SELECT
        1
      FROM
        "groups" far
      WHERE
        far.id = "groups_related_resources"."group_id"
    )
  );
-- params: [7,3]

SELECT
  "group_id" AS "id"
FROM
  "groups_related_resources"
WHERE
  "resource_id" = $1;
-- params: [7]

-- ResourceLinkRepository.add (notes)
DELETE FROM "resource_notes"
WHERE
  "resource_id" IN ($1, $2)
  AND "note_id" IN ($3, $4);
-- params: [7,8,1,2]

INSERT INTO
  "resource_notes" ("resource_id", "note_id")
VALUES
  ($1, $2),
  ($3, $4),
  ($5, $6),
  ($7, $8);
-- params: [7,1,7,2,8,1,8,2]

-- ResourceLinkRepository.targetsOf (groups)
SELECT DISTINCT
  "l"."group_id" AS "target"
FROM
  "groups_related_resources" AS "l"
WHERE
  "l"."resource_id" IN ($1, $2);
-- params: [7,8]

-- ResourceLinkRepository.notesOf
SELECT
  "notes"."id",
  "notes"."name"
FROM
  "resource_notes"
  INNER JOIN "notes" ON "notes"."id" = "resource_notes"."note_id"
WHERE
  "resource_notes"."resource_id" = $1
  AND "notes"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "notes"."name";
-- params: [7,3]

-- ResourceLinkRepository.relatedGroupsOf
SELECT
  "groups".*
FROM
  "groups_related_resources" AS "rr"
  INNER JOIN "groups" ON "groups"."id" = "rr"."group_id"
WHERE
  "rr"."resource_id" = $1
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "groups"."name";
-- params: [7,3]

-- ResourceLinkRepository.groups
SELECT
  *
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- ResourceReferenceRepository.category
SELECT
  "id",
  "name",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" = $1;
-- params: [2]

-- ResourceReferenceRepository.categories
SELECT
  "id",
  "name",
  "description"
FROM
  "resource_categories"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- ResourceReferenceRepository.categoryOptions
SELECT
  "id",
  "name"
FROM
  "resource_categories"
ORDER BY
  "name";
-- params: []

-- ResourceReferenceRepository.detectable
SELECT
  "id",
  "name",
  "auto_detect_rules"
FROM
  "resource_categories"
WHERE
  "auto_detect_rules" <> $1;
-- params: [""]

-- ResourceReferenceRepository.fallbackCategory
SELECT
  "id"
FROM
  "resource_categories"
WHERE
  "name" = $1;
-- params: ["Default"]

SELECT
  "id"
FROM
  "resource_categories"
ORDER BY
  "id";
-- params: []

-- ResourceReferenceRepository.groupCategoryNamed
SELECT
  "id"
FROM
  "categories"
WHERE
  "name" = $1;
-- params: ["Albums"]

-- ResourceReferenceRepository.insertGroupCategory
INSERT INTO
  "categories" ("created_at", "updated_at", "created_by_user_id", "guid", "name", "section_config")
VALUES
  ($1, $2, $3, $4, $5, $6)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000001","Albums","{}"]

-- ResourceReferenceRepository.groupNamed (any category)
SELECT
  "id"
FROM
  "groups"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["Holiday"]

-- ResourceReferenceRepository.groupNamed (in a category)
SELECT
  "id"
FROM
  "groups"
WHERE
  "name" = $1
  AND "category_id" = $2
ORDER BY
  "id";
-- params: ["Holiday",3]

-- ResourceReferenceRepository.insertGroup
INSERT INTO
  "groups" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "meta",
    "owner_id",
    "category_id",
    "url"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000002","Holiday","","{}",null,3,null]

-- SeriesMembershipRepository.ensure
INSERT INTO
  "series" ("created_at", "updated_at", "created_by_user_id", "name", "slug", "meta")
VALUES
  ($1, $2, $3, $4, $5, $6)
ON CONFLICT ("slug") DO NOTHING;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"trip","trip","{}"]

SELECT
  "id"
FROM
  "series"
WHERE
  "slug" = $1;
-- params: ["trip"]

-- SeriesMembershipRepository.exists
SELECT
  "id"
FROM
  "series"
WHERE
  "id" = $1;
-- params: [4]

-- SeriesMembershipRepository.claimMeta
UPDATE "series"
SET
  "meta" = $1,
  "updated_at" = $2
WHERE
  "id" = $3
  AND (
    CAST(meta AS text) = '{}'
    OR meta IS NULL
  );
-- params: ["{\"a\":1}","2024-06-01T12:00:00.000Z",4]

-- SeriesMembershipRepository.metaOf
SELECT
  "meta"
FROM
  "series"
WHERE
  "id" = $1;
-- params: [4]

-- SeriesMembershipRepository.byIds
SELECT
  "id",
  "name",
  "slug",
  "meta"
FROM
  "series"
WHERE
  "id" IN ($1, $2);
-- params: [4,5]

-- SeriesMembershipRepository.removeIfEmpty
SELECT
  "id"
FROM
  "resources"
WHERE
  "series_id" = $1
LIMIT
  $2;
-- params: [4,1]

DELETE FROM "series"
WHERE
  "id" = $1;
-- params: [4]
