-- SavedSearchRepository.list (every family)
SELECT
  *
FROM
  "saved_searches"
WHERE
  "user_id" = ?
ORDER BY
  lower(name),
  "name",
  "id";
-- params: [7]

-- SavedSearchRepository.list (one family)
SELECT
  *
FROM
  "saved_searches"
WHERE
  "user_id" = ?
  AND "family" = ?
ORDER BY
  lower(name),
  "name",
  "id";
-- params: [7,"resources"]

-- SavedSearchRepository.findOwned
SELECT
  *
FROM
  "saved_searches"
WHERE
  "id" = ?
  AND "user_id" = ?;
-- params: [3,7]

-- SavedSearchRepository.insert
INSERT INTO
  "saved_searches" ("user_id", "name", "family", "layout", "url", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: [7,"Holiday photos","resources","details","/resources/details?Tags=3","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- SavedSearchRepository.updateOwned
UPDATE "saved_searches"
SET
  "name" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "user_id" = ?;
-- params: ["Trips","2024-06-01T12:00:00.000Z",3,7]

-- SavedSearchRepository.removeOwned
DELETE FROM "saved_searches"
WHERE
  "id" = ?
  AND "user_id" = ?;
-- params: [3,7]
