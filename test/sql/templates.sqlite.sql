-- TemplateRepository.carriers
SELECT
  "id",
  "custom_mrql_result",
  "custom_css",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" IN (?, ?);
-- params: [1,2]

-- TemplateRepository.slot (a category header)
SELECT
  "custom_header" AS "slot",
  "meta_schema"
FROM
  "categories"
WHERE
  "id" = ?;
-- params: [8]

-- TemplateRepository.slot (a resource category preview)
SELECT
  "custom_preview" AS "slot",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" = ?;
-- params: [2]

-- TemplateRepository.chains
WITH RECURSIVE
  up (start, id, owner_id, depth) AS (
    SELECT
      g.id,
      g.id,
      g.owner_id,
      0
    FROM
      groups g
    WHERE
      g.id IN (?, ?)
    UNION ALL
    SELECT
      up.start,
      g.id,
      g.owner_id,
      up.depth + 1
    FROM
      up
      JOIN groups g ON g.id = up.owner_id
    WHERE
      up.depth < 50
  )
SELECT
  start,
  id,
  owner_id,
  depth
FROM
  up
ORDER BY
  start,
  depth;
-- params: [3,5]

-- TemplateRepository.partial
SELECT
  "content"
FROM
  "template_partials"
WHERE
  "name" = ?;
-- params: ["price-tag"]
