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
  at
FROM
  (
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
        ORDER BY
          created_at DESC
        LIMIT
          $2
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $4
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $8
      ) c_tags
  ) a
ORDER BY
  at DESC
LIMIT
  1
OFFSET
  $9;
-- params: ["resource",20,"note",20,"group",20,"tag",20,19]

SELECT
  *
FROM
  (
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
        ORDER BY
          created_at DESC
        LIMIT
          $2
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $4
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
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
        ORDER BY
          created_at DESC
        LIMIT
          $8
      ) c_tags
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $9 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "resources"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND 1 = 1
        ORDER BY
          updated_at DESC
        LIMIT
          $10
      ) u_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $11 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "notes"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND 1 = 1
        ORDER BY
          updated_at DESC
        LIMIT
          $12
      ) u_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $13 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "groups"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND 1 = 1
        ORDER BY
          updated_at DESC
        LIMIT
          $14
      ) u_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $15 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND 1 = 1
        ORDER BY
          updated_at DESC
        LIMIT
          $16
      ) u_tags
  ) a
ORDER BY
  at DESC
LIMIT
  $17;
-- params: ["resource",20,"note",20,"group",20,"tag",20,"resource",20,"note",20,"group",20,"tag",20,20]

-- DashboardRepository.activity (confined)
SELECT
  at
FROM
  (
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
        ORDER BY
          created_at DESC
        LIMIT
          $3
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $4 AS type,
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
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $7 AS type,
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
        ORDER BY
          created_at DESC
        LIMIT
          $9
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $10 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
        ORDER BY
          created_at DESC
        LIMIT
          $11
      ) c_tags
  ) a
ORDER BY
  at DESC
LIMIT
  1
OFFSET
  $12;
-- params: ["resource",3,20,"note",3,20,"group",3,20,"tag",20,19]

SELECT
  *
FROM
  (
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
        ORDER BY
          created_at DESC
        LIMIT
          $3
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $4 AS type,
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
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $7 AS type,
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
        ORDER BY
          created_at DESC
        LIMIT
          $9
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $10 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
        ORDER BY
          created_at DESC
        LIMIT
          $11
      ) c_tags
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $12 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "resources"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND "resources"."owner_id" IN (
            WITH RECURSIVE
              scope_tree (id, depth) AS (
                SELECT
                  id,
                  0
                FROM
                  "groups"
                WHERE
                  id = $13
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
          updated_at DESC
        LIMIT
          $14
      ) u_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $15 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "notes"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND "notes"."owner_id" IN (
            WITH RECURSIVE
              scope_tree (id, depth) AS (
                SELECT
                  id,
                  0
                FROM
                  "groups"
                WHERE
                  id = $16
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
          updated_at DESC
        LIMIT
          $17
      ) u_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $18 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "groups"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND "groups"."id" IN (
            WITH RECURSIVE
              scope_tree (id, depth) AS (
                SELECT
                  id,
                  0
                FROM
                  "groups"
                WHERE
                  id = $19
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
          updated_at DESC
        LIMIT
          $20
      ) u_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $21 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
          AND 1 = 1
        ORDER BY
          updated_at DESC
        LIMIT
          $22
      ) u_tags
  ) a
ORDER BY
  at DESC
LIMIT
  $23;
-- params: ["resource",3,20,"note",3,20,"group",3,20,"tag",20,"resource",3,20,"note",3,20,"group",3,20,"tag",20,20]
