-- PickRepository.names
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?)
  AND 1 = 1;
-- params: [3,4]

-- PickRepository.names (groups, confined)
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?)
  AND "groups"."id" IN (
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
  );
-- params: [3,4,3]

-- PickRepository.names (resources, confined)
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "id" IN (?)
  AND "resources"."owner_id" IN (
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
  "id" = ?;
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
  "id" = ?;
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
  ?;
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
  "created_at" DESC,
  "id" DESC
LIMIT
  ?;
-- params: [3,6]

-- DashboardRepository.activity
SELECT
  *
FROM
  (
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "resources"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "resources"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND 1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "notes"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "notes"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND 1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "groups"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "groups"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND 1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "tags"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "tags"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND 1 = 1
  ) a
ORDER BY
  at DESC
LIMIT
  ?;
-- params: ["resource","resource","note","note","group","group","tag","tag",20]

-- DashboardRepository.activity (confined)
SELECT
  *
FROM
  (
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "resources"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND "resources"."owner_id" IN (
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "notes"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND "notes"."owner_id" IN (
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "groups"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND "groups"."id" IN (
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "tags"
    WHERE
      1 = 1
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'updated' AS ACTION,
      updated_at AS at
    FROM
      "tags"
    WHERE
      julianday(updated_at) > julianday(created_at) + 1.0 / 86400
      AND 1 = 1
  ) a
ORDER BY
  at DESC
LIMIT
  ?;
-- params: ["resource",3,"resource",3,"note",3,"note",3,"group",3,"group",3,"tag","tag",20]
