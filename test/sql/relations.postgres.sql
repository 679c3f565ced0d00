-- RelationTypeRepository.find
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "group_relation_types"."id" = $1;
-- params: [7]

-- RelationTypeRepository.findByName
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["works at"]

-- RelationTypeRepository.findMany
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "group_relation_types"."id" IN ($1, $2)
ORDER BY
  "group_relation_types"."id";
-- params: [1,2]

-- RelationTypeRepository.page
SELECT
  "group_relation_types".*
FROM
  "group_relation_types"
ORDER BY
  "group_relation_types"."created_at" DESC,
  "group_relation_types"."id" DESC
LIMIT
  $1
OFFSET
  $2;
-- params: [50,0]

-- RelationTypeRepository.page (category filters)
SELECT
  "group_relation_types".*
FROM
  "group_relation_types"
WHERE
  group_relation_types.from_category_id = $1
  AND group_relation_types.to_category_id = $2
ORDER BY
  "group_relation_types"."from_category_id" ASC NULLS LAST,
  "group_relation_types"."created_at" DESC,
  "group_relation_types"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: [1,2,50,0]

-- RelationTypeRepository.page (types fitting a group on either side)
SELECT
  "group_relation_types".*
FROM
  "group_relation_types"
WHERE
  "group_relation_types"."name" ILIKE CAST($1 AS text) ESCAPE '\'
  AND group_relation_types.from_category_id = (
    SELECT
      g.category_id
    FROM
      "groups" g
    WHERE
      g.id = $2
  )
  AND group_relation_types.to_category_id = (
    SELECT
      g.category_id
    FROM
      "groups" g
    WHERE
      g.id = $3
  )
ORDER BY
  "group_relation_types"."created_at" DESC,
  "group_relation_types"."id" DESC
LIMIT
  $4
OFFSET
  $5;
-- params: ["%work%",10,11,50,0]

-- RelationTypeRepository.count
SELECT
  count(*) AS "n"
FROM
  "group_relation_types"
WHERE
  group_relation_types.from_category_id = $1;
-- params: [1]

-- RelationTypeRepository.timeline
SELECT
  sum(
    CASE
      WHEN "group_relation_types"."created_at" >= $1
      AND "group_relation_types"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "group_relation_types"."updated_at" >= $3
      AND "group_relation_types"."updated_at" < $4
      AND "group_relation_types"."updated_at" > "group_relation_types"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "group_relation_types"
WHERE
  (
    (
      "group_relation_types"."created_at" >= $5
      AND "group_relation_types"."created_at" < $6
    )
    OR (
      "group_relation_types"."updated_at" >= $7
      AND "group_relation_types"."updated_at" < $8
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- RelationTypeRepository.insert
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
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","works at","",1,2,null]

-- RelationTypeRepository.update
UPDATE "group_relation_types"
SET
  "name" = $1,
  "from_category_id" = $2,
  "to_category_id" = $3,
  "updated_at" = $4
WHERE
  "group_relation_types"."id" = $5;
-- params: ["employs",2,1,"2024-06-01T12:00:00.000Z",7]

-- RelationTypeRepository.remove
DELETE FROM "group_relation_types"
WHERE
  "group_relation_types"."id" IN ($1);
-- params: [7]

-- RelationTypeRepository.findByEnds
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = $1
  AND "from_category_id" = $2
  AND "to_category_id" = $3
ORDER BY
  "id";
-- params: ["employs",2,1]

-- RelationTypeRepository.findByEnds (other than one type)
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = $1
  AND "from_category_id" = $2
  AND "to_category_id" = $3
  AND "id" <> $4
ORDER BY
  "id";
-- params: ["employs",2,1,7]

-- RelationTypeRepository.releaseBacks
UPDATE "group_relation_types"
SET
  "back_relation_id" = $1,
  "updated_at" = $2
WHERE
  "back_relation_id" IN ($3, $4)
  AND "id" NOT IN ($5, $6);
-- params: [null,"2024-06-01T12:00:00.000Z",7,8,7,8]

-- RelationTypeRepository.setBack
UPDATE "group_relation_types"
SET
  "back_relation_id" = $1,
  "updated_at" = $2
WHERE
  "id" = $3;
-- params: [8,"2024-06-01T12:00:00.000Z",7]

-- RelationTypeRepository.options
SELECT
  "t"."id",
  "t"."name",
  "f"."name" AS "from_name",
  "c"."name" AS "to_name"
FROM
  "group_relation_types" AS "t"
  LEFT JOIN "categories" AS "f" ON "f"."id" = "t"."from_category_id"
  LEFT JOIN "categories" AS "c" ON "c"."id" = "t"."to_category_id"
ORDER BY
  "t"."name",
  "t"."id";
-- params: []

-- RelationRepository.find
SELECT
  *
FROM
  "group_relations"
WHERE
  "group_relations"."id" = $1
  AND (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  );
-- params: [9,3,3]

-- RelationRepository.findByName
SELECT
  *
FROM
  "group_relations"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["lives"]

-- RelationRepository.findMany
SELECT
  *
FROM
  "group_relations"
WHERE
  "group_relations"."id" IN ($1, $2)
  AND (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  )
ORDER BY
  "group_relations"."id";
-- params: [9,10,3,3]

-- RelationRepository.page
SELECT
  "group_relations".*
FROM
  "group_relations"
WHERE
  (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  "group_relations"."created_at" DESC,
  "group_relations"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: [3,3,50,0]

-- RelationRepository.count
SELECT
  count(*) AS "n"
FROM
  "group_relations"
WHERE
  (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  );
-- params: [3,3]

-- RelationRepository.timeline
SELECT
  sum(
    CASE
      WHEN "group_relations"."created_at" >= $1
      AND "group_relations"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "group_relations"."updated_at" >= $3
      AND "group_relations"."updated_at" < $4
      AND "group_relations"."updated_at" > "group_relations"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "group_relations"
WHERE
  (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  )
  AND (
    (
      "group_relations"."created_at" >= $7
      AND "group_relations"."created_at" < $8
    )
    OR (
      "group_relations"."updated_at" >= $9
      AND "group_relations"."updated_at" < $10
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z",3,3,"2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- RelationRepository.update
UPDATE "group_relations"
SET
  "name" = $1,
  "from_group_id" = $2,
  "to_group_id" = $3,
  "relation_type_id" = $4,
  "updated_at" = $5
WHERE
  "group_relations"."id" = $6
  AND (
    "group_relations"."from_group_id" IN (
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $7
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
    AND "group_relations"."to_group_id" IN (
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $8
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
  );
-- params: ["step",3,4,7,"2024-06-01T12:00:00.000Z",9,3,3]

-- RelationRepository.remove
DELETE FROM "group_relations"
WHERE
  "group_relations"."id" IN ($1)
  AND (
    "group_relations"."from_group_id" IN (
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
    AND "group_relations"."to_group_id" IN (
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
  );
-- params: [9,3,3]

-- RelationRepository.listPage
SELECT
  "r".*,
  "fg"."name" AS "from_name",
  "tg"."name" AS "to_name",
  "t"."name" AS "type_name"
FROM
  "group_relations" AS "r"
  INNER JOIN "groups" AS "fg" ON "fg"."id" = "r"."from_group_id"
  INNER JOIN "groups" AS "tg" ON "tg"."id" = "r"."to_group_id"
  INNER JOIN "group_relation_types" AS "t" ON "t"."id" = "r"."relation_type_id"
WHERE
  "r"."from_group_id" IN (
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
  AND "r"."to_group_id" IN (
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
  "r"."created_at" DESC,
  "r"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: [3,3,50,0]

-- RelationRepository.listPage (every filter)
SELECT
  "r".*,
  "fg"."name" AS "from_name",
  "tg"."name" AS "to_name",
  "t"."name" AS "type_name"
FROM
  "group_relations" AS "r"
  INNER JOIN "groups" AS "fg" ON "fg"."id" = "r"."from_group_id"
  INNER JOIN "groups" AS "tg" ON "tg"."id" = "r"."to_group_id"
  INNER JOIN "group_relation_types" AS "t" ON "t"."id" = "r"."relation_type_id"
WHERE
  "r"."from_group_id" = $1
  AND "r"."to_group_id" = $2
  AND "r"."relation_type_id" = $3
  AND (
    "r"."from_group_id" = $4
    OR "r"."to_group_id" = $5
  )
  AND "r"."from_group_id" IN (
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
  AND "r"."to_group_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $7
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
  "r"."created_at" DESC,
  "r"."id" DESC
LIMIT
  $8
OFFSET
  $9;
-- params: [3,4,7,3,3,3,3,50,50]

-- RelationRepository.ofGroup (outgoing)
SELECT
  "r".*,
  "t"."name" AS "type_name",
  "g"."name" AS "other_name"
FROM
  "group_relations" AS "r"
  INNER JOIN "group_relation_types" AS "t" ON "t"."id" = "r"."relation_type_id"
  INNER JOIN "groups" AS "g" ON "g"."id" = "r"."to_group_id"
WHERE
  "r"."from_group_id" = $1
  AND "r"."to_group_id" IN (
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
  "t"."name",
  "g"."name"
LIMIT
  $3;
-- params: [3,3,50]

-- RelationRepository.ofGroup (incoming)
SELECT
  "r".*,
  "t"."name" AS "type_name",
  "g"."name" AS "other_name"
FROM
  "group_relations" AS "r"
  INNER JOIN "group_relation_types" AS "t" ON "t"."id" = "r"."relation_type_id"
  INNER JOIN "groups" AS "g" ON "g"."id" = "r"."from_group_id"
WHERE
  "r"."to_group_id" = $1
  AND "r"."from_group_id" IN (
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
  "t"."name",
  "g"."name"
LIMIT
  $3;
-- params: [3,3,50]

-- RelationRepository.groupNames
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- RelationRepository.endpoint
SELECT
  "groups"."id",
  "groups"."name",
  "groups"."category_id",
  "categories"."name" AS "category"
FROM
  "groups"
  LEFT JOIN "categories" ON "categories"."id" = "groups"."category_id"
WHERE
  "groups"."id" = $1;
-- params: [3]

-- RelationRepository.exists
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "from_group_id" = $1
  AND "to_group_id" = $2
  AND "relation_type_id" = $3;
-- params: [3,4,7]

-- RelationRepository.exists (other than one relation)
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "from_group_id" = $1
  AND "to_group_id" = $2
  AND "relation_type_id" = $3
  AND "id" <> $4;
-- params: [3,4,7,9]

-- RelationRepository.anyOfTypes
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "relation_type_id" IN ($1, $2)
LIMIT
  $3;
-- params: [7,8,1]

-- RelationRepository.insert
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
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"","",3,4,7]

-- RelationRepository.removeBackEdge
DELETE FROM group_relations
WHERE
  from_group_id = $1
  AND to_group_id = $2
  AND relation_type_id = (
    SELECT
      back_relation_id
    FROM
      group_relation_types
    WHERE
      id = $3
  );
-- params: [4,3,7]
