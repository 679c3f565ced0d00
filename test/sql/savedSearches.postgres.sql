-- SavedSearchRepository.list (every family)
SELECT
  *
FROM
  "saved_searches"
WHERE
  "user_id" = $1
ORDER BY
  lower(name) COLLATE "C",
  "name",
  "id";
-- params: [7]

-- SavedSearchRepository.list (one family)
SELECT
  *
FROM
  "saved_searches"
WHERE
  "user_id" = $1
  AND "family" = $2
ORDER BY
  lower(name) COLLATE "C",
  "name",
  "id";
-- params: [7,"resources"]

-- SavedSearchRepository.findOwned
SELECT
  *
FROM
  "saved_searches"
WHERE
  "id" = $1
  AND "user_id" = $2;
-- params: [3,7]

-- SavedSearchRepository.insert
INSERT INTO
  "saved_searches" ("user_id", "name", "family", "layout", "url", "created_at", "updated_at")
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  *;
-- params: [7,"Holiday photos","resources","details","/resources/details?Tags=3","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- SavedSearchRepository.updateOwned
UPDATE "saved_searches"
SET
  "name" = $1,
  "updated_at" = $2
WHERE
  "id" = $3
  AND "user_id" = $4;
-- params: ["Trips","2024-06-01T12:00:00.000Z",3,7]

-- SavedSearchRepository.removeOwned
DELETE FROM "saved_searches"
WHERE
  "id" = $1
  AND "user_id" = $2;
-- params: [3,7]
