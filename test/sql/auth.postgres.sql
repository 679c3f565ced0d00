-- RootAdminRepository.oldestAdmin
SELECT
  "id",
  "username"
FROM
  "users"
WHERE
  "role" = $1
  AND "disabled" = $2
ORDER BY
  "created_at",
  "id";
-- params: ["admin",false]

-- RootAdminRepository.usernameTaken
SELECT
  "id"
FROM
  "users"
WHERE
  "username" = $1;
-- params: ["root"]

-- RootAdminRepository.insert
INSERT INTO
  "users" (
    "created_at",
    "updated_at",
    "guid",
    "username",
    "display_name",
    "password_hash",
    "role",
    "disabled",
    "password_auto_generated"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9);
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","00000000-0000-4000-8000-000000000000","root","Administrator","$2b$10$hash","admin",false,true]
