-- RelationTypeRepository.find
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "group_relation_types"."id" = ?;
-- params: [7]

-- RelationTypeRepository.findByName
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["works at"]

-- RelationTypeRepository.findMany
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "group_relation_types"."id" IN (?, ?)
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
  ?
OFFSET
  ?;
-- params: [50,0]

-- RelationTypeRepository.page (category filters)
SELECT
  "group_relation_types".*
FROM
  "group_relation_types"
WHERE
  group_relation_types.from_category_id = ?
  AND group_relation_types.to_category_id = ?
ORDER BY
  "group_relation_types"."from_category_id" ASC NULLS LAST,
  "group_relation_types"."created_at" DESC,
  "group_relation_types"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [1,2,50,0]

-- RelationTypeRepository.page (types fitting a group on either side)
SELECT
  "group_relation_types".*
FROM
  "group_relation_types"
WHERE
  lower("group_relation_types"."name") LIKE lower(?) ESCAPE '\'
  AND group_relation_types.from_category_id = (
    SELECT
      g.category_id
    FROM
      "groups" g
    WHERE
      g.id = ?
  )
  AND group_relation_types.to_category_id = (
    SELECT
      g.category_id
    FROM
      "groups" g
    WHERE
      g.id = ?
  )
ORDER BY
  "group_relation_types"."created_at" DESC,
  "group_relation_types"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%work%",10,11,50,0]

-- RelationTypeRepository.count
SELECT
  count(*) AS "n"
FROM
  "group_relation_types"
WHERE
  group_relation_types.from_category_id = ?;
-- params: [1]

-- RelationTypeRepository.timeline
SELECT
  sum(
    CASE
      WHEN "group_relation_types"."created_at" >= ?
      AND "group_relation_types"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "group_relation_types"."updated_at" >= ?
      AND "group_relation_types"."updated_at" < ?
      AND "group_relation_types"."updated_at" > "group_relation_types"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "group_relation_types"
WHERE
  (
    (
      "group_relation_types"."created_at" >= ?
      AND "group_relation_types"."created_at" < ?
    )
    OR (
      "group_relation_types"."updated_at" >= ?
      AND "group_relation_types"."updated_at" < ?
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","works at","",1,2,null]

-- RelationTypeRepository.update
UPDATE "group_relation_types"
SET
  "name" = ?,
  "from_category_id" = ?,
  "to_category_id" = ?,
  "updated_at" = ?
WHERE
  "group_relation_types"."id" = ?;
-- params: ["employs",2,1,"2024-06-01T12:00:00.000Z",7]

-- RelationTypeRepository.remove
DELETE FROM "group_relation_types"
WHERE
  "group_relation_types"."id" IN (?);
-- params: [7]

-- RelationTypeRepository.findByEnds
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = ?
  AND "from_category_id" = ?
  AND "to_category_id" = ?
ORDER BY
  "id";
-- params: ["employs",2,1]

-- RelationTypeRepository.findByEnds (other than one type)
SELECT
  *
FROM
  "group_relation_types"
WHERE
  "name" = ?
  AND "from_category_id" = ?
  AND "to_category_id" = ?
  AND "id" <> ?
ORDER BY
  "id";
-- params: ["employs",2,1,7]

-- RelationTypeRepository.releaseBacks
UPDATE "group_relation_types"
SET
  "back_relation_id" = ?,
  "updated_at" = ?
WHERE
  "back_relation_id" IN (?, ?)
  AND "id" NOT IN (?, ?);
-- params: [null,"2024-06-01T12:00:00.000Z",7,8,7,8]

-- RelationTypeRepository.setBack
UPDATE "group_relation_types"
SET
  "back_relation_id" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
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
  "group_relations"."id" = ?
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
            id = ?
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
            id = ?
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
  "name" = ?
ORDER BY
  "id";
-- params: ["lives"]

-- RelationRepository.findMany
SELECT
  *
FROM
  "group_relations"
WHERE
  "group_relations"."id" IN (?, ?)
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
            id = ?
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
            id = ?
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
            id = ?
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
            id = ?
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
  ?
OFFSET
  ?;
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
            id = ?
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
            id = ?
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
      WHEN "group_relations"."created_at" >= ?
      AND "group_relations"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "group_relations"."updated_at" >= ?
      AND "group_relations"."updated_at" < ?
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
            id = ?
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
            id = ?
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
      "group_relations"."created_at" >= ?
      AND "group_relations"."created_at" < ?
    )
    OR (
      "group_relations"."updated_at" >= ?
      AND "group_relations"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z",3,3,"2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- RelationRepository.update
UPDATE "group_relations"
SET
  "name" = ?,
  "from_group_id" = ?,
  "to_group_id" = ?,
  "relation_type_id" = ?,
  "updated_at" = ?
WHERE
  "group_relations"."id" = ?
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
            id = ?
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
            id = ?
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
  "group_relations"."id" IN (?)
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
            id = ?
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
            id = ?
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
          id = ?
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
          id = ?
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
  ?
OFFSET
  ?;
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
  "r"."from_group_id" = ?
  AND "r"."to_group_id" = ?
  AND "r"."relation_type_id" = ?
  AND (
    "r"."from_group_id" = ?
    OR "r"."to_group_id" = ?
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
          id = ?
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
          id = ?
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
  ?
OFFSET
  ?;
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
  "r"."from_group_id" = ?
  AND "r"."to_group_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
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
  "r"."to_group_id" = ?
  AND "r"."from_group_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
-- params: [3,3,50]

-- RelationRepository.groupNames
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?);
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
  "groups"."id" = ?;
-- params: [3]

-- RelationRepository.exists
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "from_group_id" = ?
  AND "to_group_id" = ?
  AND "relation_type_id" = ?;
-- params: [3,4,7]

-- RelationRepository.exists (other than one relation)
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "from_group_id" = ?
  AND "to_group_id" = ?
  AND "relation_type_id" = ?
  AND "id" <> ?;
-- params: [3,4,7,9]

-- RelationRepository.anyOfTypes
SELECT
  "id"
FROM
  "group_relations"
WHERE
  "relation_type_id" IN (?, ?)
LIMIT
  ?;
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
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"","",3,4,7]

-- RelationRepository.removeBackEdge
DELETE FROM group_relations
WHERE
  from_group_id = ?
  AND to_group_id = ?
  AND relation_type_id = (
    SELECT
      back_relation_id
    FROM
      group_relation_types
    WHERE
      id = ?
  );
-- params: [4,3,7]
