-- PickRepository.names
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?);
-- params: [3,4]

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
ORDER BY
  "created_at" DESC,
  "id" DESC
LIMIT
  ?;
-- params: [6]

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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "notes"
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "groups"
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
    UNION ALL
    SELECT
      ? AS type,
      id,
      name,
      'created' AS ACTION,
      created_at AS at
    FROM
      "tags"
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
  ) a
ORDER BY
  at DESC
LIMIT
  ?;
-- params: ["resource","resource","note","note","group","group","tag","tag",20]
