-- NoteRepository.find
SELECT
  *
FROM
  "notes"
WHERE
  "notes"."id" = ?
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
  );
-- params: [7,3]

-- NoteRepository.findByName
SELECT
  *
FROM
  "notes"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["diary"]

-- NoteRepository.findMany
SELECT
  *
FROM
  "notes"
WHERE
  "notes"."id" IN (?, ?, ?)
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
ORDER BY
  "notes"."id";
-- params: [1,2,3,3]

-- NoteRepository.page
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
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
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "notes".*
FROM
  "notes"
WHERE
  + notes.owner_id IN (
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
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [3,50,0]

-- NoteRepository.page (small subtree: group by group on PostgreSQL)
SELECT
  "notes".*
FROM
  "notes"
WHERE
  "notes"."id" IN (
    SELECT
      "notes"."id" AS "id"
    FROM
      "notes"
    WHERE
      lower("notes"."name") LIKE lower(?) ESCAPE '\'
      AND notes.owner_id IN (
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
      "notes"."created_at" DESC,
      "notes"."id" DESC
    LIMIT
      ?
    OFFSET
      ?
  )
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC;
-- params: ["%hol%",3,50,100]

-- NoteRepository.page (every filter)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
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
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "notes".*
FROM
  "notes"
WHERE
  notes.name LIKE ?
  AND lower("notes"."name") LIKE lower(?) ESCAPE '\'
  AND lower("notes"."description") LIKE lower(?) ESCAPE '\'
  AND "notes"."created_at" <= ?
  AND "notes"."created_at" >= ?
  AND "notes"."updated_at" <= ?
  AND "notes"."updated_at" >= ?
  AND "notes"."start_date" <= ?
  AND "notes"."start_date" >= ?
  AND "notes"."end_date" <= ?
  AND "notes"."end_date" >= ?
  AND "notes"."owner_id" = ?
  AND EXISTS (
    SELECT
      1
    FROM
      note_tags nt
    WHERE
      nt.note_id = notes.id
      AND nt.tag_id = ?
  )
  AND EXISTS (
    SELECT
      1
    FROM
      note_tags nt
    WHERE
      nt.note_id = notes.id
      AND nt.tag_id = ?
  )
  AND (
    notes.owner_id = ?
    OR EXISTS (
      SELECT
        1
      FROM
        groups_related_notes rn
      WHERE
        rn.note_id = notes.id
        AND rn.group_id = ?
    )
  )
  AND "notes"."id" IN (?, ?)
  AND "notes"."note_type_id" = ?
  AND "notes"."note_type_id" IN (?, ?)
  AND "notes"."share_token" IS NOT NULL
  AND ((CAST(json_extract("notes"."meta", '$.colour') AS TEXT) LIKE ? ESCAPE '\'))
  AND notes.owner_id IN (
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
  json_extract("notes"."meta", '$.colour') DESC NULLS LAST,
  "notes"."start_date" ASC NULLS LAST,
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["name ~ \"trip\"","%trip%","%sea%","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-06-30T00:00:00.000Z","2024-06-01T00:00:00.000Z","2024-07-31T00:00:00.000Z","2024-07-01T00:00:00.000Z",4,1,2,5,5,10,11,3,3,6,"%red%",3,50,100]

-- NoteRepository.count
SELECT
  count(*) AS "n"
FROM
  "notes"
WHERE
  "notes"."share_token" IS NULL
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
  );
-- params: [3]

-- NoteRepository.timeline
SELECT
  sum(
    CASE
      WHEN "notes"."created_at" >= ?
      AND "notes"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "notes"."updated_at" >= ?
      AND "notes"."updated_at" < ?
      AND "notes"."updated_at" > "notes"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "notes"
WHERE
  lower("notes"."name") LIKE lower(?) ESCAPE '\'
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
  AND (
    (
      "notes"."created_at" >= ?
      AND "notes"."created_at" < ?
    )
    OR (
      "notes"."updated_at" >= ?
      AND "notes"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","%trip%",3,"2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- NoteRepository.matchingIds
SELECT
  "notes"."id"
FROM
  "notes"
WHERE
  EXISTS (
    SELECT
      1
    FROM
      note_tags nt
    WHERE
      nt.note_id = notes.id
      AND nt.tag_id = ?
  )
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
ORDER BY
  "notes"."id"
LIMIT
  ?;
-- params: [1,3,1001]

-- NoteRepository.insert
INSERT INTO
  "notes" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "meta",
    "owner_id",
    "note_type_id",
    "start_date",
    "end_date"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","diary","","{}",4,null,null,null]

-- NoteRepository.update
UPDATE "notes"
SET
  "name" = ?,
  "description" = ?,
  "updated_at" = ?
WHERE
  "notes"."id" = ?
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
  );
-- params: ["journal","text","2024-06-01T12:00:00.000Z",7,3]

-- NoteRepository.remove
DELETE FROM "notes"
WHERE
  "notes"."id" IN (?, ?)
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
  );
-- params: [7,8,3]

-- NoteRepository.existing (groups)
SELECT
  "groups"."id"
FROM
  "groups"
WHERE
  "groups"."id" IN (?, ?)
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
-- params: [4,5,3]

-- NoteRepository.setLinks (tags)
DELETE FROM "note_tags"
WHERE
  "note_id" = ?;
-- params: [7]

INSERT INTO
  "note_tags" ("note_id", "tag_id")
VALUES
  (?, ?),
  (?, ?);
-- params: [7,1,7,2]

-- NoteRepository.setLinks (resources, cleared)
DELETE FROM "resource_notes"
WHERE
  "note_id" = ?
  AND (
    EXISTS (
      SELECT
        1
      FROM
        "resources" vis_e
      WHERE
        vis_e.id = "resource_notes"."resource_id"
        AND "vis_e"."owner_id" IN (
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
    OR NOT EXISTS (
      SELECT
        1
      FROM
        "resources" far
      WHERE
        far.id = "resource_notes"."resource_id"
    )
  );
-- params: [7,3]

SELECT
  "resource_id" AS "id"
FROM
  "resource_notes"
WHERE
  "note_id" = ?;
-- params: [7]

-- NoteRepository.groupsOf
SELECT
  "groups".*,
  "rn"."note_id"
FROM
  "groups_related_notes" AS "rn"
  INNER JOIN "groups" ON "groups"."id" = "rn"."group_id"
WHERE
  "rn"."note_id" IN (?, ?)
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
ORDER BY
  "groups"."name";
-- params: [7,8,3]

-- NoteRepository.resourcesOf
SELECT
  "rn"."note_id",
  "r"."id",
  "r"."name",
  "r"."content_type",
  "r"."file_size",
  "r"."hash",
  "r"."width",
  "r"."height",
  "r"."created_at"
FROM
  "resource_notes" AS "rn"
  INNER JOIN "resources" AS "r" ON "r"."id" = "rn"."resource_id"
WHERE
  "rn"."note_id" IN (?)
  AND "r"."owner_id" IN (
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
  "r"."name",
  "r"."id";
-- params: [7,3]

-- NoteRepository.group
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" = ?
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
-- params: [4,3]

-- NoteRepository.noteTypes
SELECT
  *
FROM
  "note_types"
WHERE
  "id" IN (?, ?);
-- params: [3,6]

-- NoteRepository.noteTypeChoices
SELECT
  "id",
  "name"
FROM
  "note_types"
ORDER BY
  "name",
  "id";
-- params: []
