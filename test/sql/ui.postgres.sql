-- PickRepository.names
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1, $2)
  AND 1 = 1;
-- params: [3,4]

-- PickRepository.names (groups, confined)
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1, $2)
  AND "groups"."id" IN (
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
-- params: [3,4,3]

-- PickRepository.names (resources, confined)
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "id" IN ($1)
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
-- params: [5,3]

-- PickRepository.names (none asked)
-- (no statement)

-- CarrierSlotRepository.css
SELECT
  "custom_css"
FROM
  "resource_categories"
WHERE
  "id" = $1;
-- params: [2]

-- CarrierSlotRepository.listSlots
SELECT
  "id",
  "name",
  "description",
  "custom_list_header",
  "custom_list_footer",
  "custom_css"
FROM
  "note_types"
WHERE
  "id" = $1;
-- params: [3]

-- DashboardRepository.recent
SELECT
  "id",
  "name",
  "description"
FROM
  "notes"
WHERE
  1 = 1
ORDER BY
  "created_at" DESC,
  "id" DESC
LIMIT
  $1;
-- params: [6]

-- DashboardRepository.recent (confined)
SELECT
  "id",
  "name",
  "description"
FROM
  "notes"
WHERE
  "notes"."owner_id" IN (
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
ORDER BY
  "created_at" DESC,
  "id" DESC
LIMIT
  $2;
-- params: [3,6]

-- DashboardRepository.activity
SELECT
  *
FROM
  (
    SELECT
      $1 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "resources"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      $2 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "resources"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND 1 = 1
    UNION ALL
    SELECT
      $3 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "notes"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      $4 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "notes"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND 1 = 1
    UNION ALL
    SELECT
      $5 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "groups"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      $6 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "groups"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND 1 = 1
    UNION ALL
    SELECT
      $7 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "tags"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      $8 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "tags"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND 1 = 1
  ) a
ORDER BY
  at DESC
LIMIT
  $9;
-- params: ["resource","resource","note","note","group","group","tag","tag",20]

-- DashboardRepository.activity (confined)
SELECT
  *
FROM
  (
    SELECT
      $1 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "resources"
    WHERE
      "resources"."owner_id" IN (
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
    UNION ALL
    SELECT
      $3 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "resources"
    WHERE
      updated_at > created_at + interval '1 seconds'
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
    UNION ALL
    SELECT
      $5 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "notes"
    WHERE
      "notes"."owner_id" IN (
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
    UNION ALL
    SELECT
      $7 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "notes"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND "notes"."owner_id" IN (
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
    UNION ALL
    SELECT
      $9 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "groups"
    WHERE
      "groups"."id" IN (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $10
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
    UNION ALL
    SELECT
      $11 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "groups"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND "groups"."id" IN (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $12
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
    UNION ALL
    SELECT
      $13 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "tags"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      $14 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "tags"
    WHERE
      updated_at > created_at + interval '1 seconds'
      AND 1 = 1
  ) a
ORDER BY
  at DESC
LIMIT
  $15;
-- params: ["resource",3,"resource",3,"note",3,"note",3,"group",3,"group",3,"tag","tag",20]
