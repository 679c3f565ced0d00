-- NoteRepository.find
SELECT
  *
FROM
  "notes"
WHERE
  "notes"."id" = $1
  AND "notes"."owner_id" IN (
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
-- params: [7,3]

-- NoteRepository.findByName
SELECT
  *
FROM
  "notes"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["diary"]

-- NoteRepository.findMany
SELECT
  *
FROM
  "notes"
WHERE
  "notes"."id" IN ($1, $2, $3)
  AND "notes"."owner_id" IN (
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
  notes.owner_id = ANY (
    ARRAY(
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
  )
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  $2
OFFSET
  $3;
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
      (
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
      ) AS "scope_group"
      INNER JOIN LATERAL (
        SELECT
          "notes".*
        FROM
          "notes"
        WHERE
          "notes"."name" ILIKE CAST($2 AS text) ESCAPE '\'
          AND "notes"."owner_id" = scope_group.id
        ORDER BY
          "notes"."created_at" DESC,
          "notes"."id" DESC
        LIMIT
          $3
      ) AS "notes" ON TRUE
    ORDER BY
      "notes"."created_at" DESC,
      "notes"."id" DESC
    LIMIT
      $4
    OFFSET
      $5
  )
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC;
-- params: [3,"%hol%",150,50,100]

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
  notes.name LIKE $1
  AND "notes"."name" ILIKE CAST($2 AS text) ESCAPE '\'
  AND "notes"."description" ILIKE CAST($3 AS text) ESCAPE '\'
  AND "notes"."created_at" <= $4
  AND "notes"."created_at" >= $5
  AND "notes"."updated_at" <= $6
  AND "notes"."updated_at" >= $7
  AND "notes"."start_date" <= $8
  AND "notes"."start_date" >= $9
  AND "notes"."end_date" <= $10
  AND "notes"."end_date" >= $11
  AND "notes"."owner_id" = $12
  AND EXISTS (
    SELECT
      1
    FROM
      note_tags nt
    WHERE
      nt.note_id = notes.id
      AND nt.tag_id = $13
  )
  AND EXISTS (
    SELECT
      1
    FROM
      note_tags nt
    WHERE
      nt.note_id = notes.id
      AND nt.tag_id = $14
  )
  AND (
    notes.owner_id = $15
    OR EXISTS (
      SELECT
        1
      FROM
        groups_related_notes rn
      WHERE
        rn.note_id = notes.id
        AND rn.group_id = $16
    )
  )
  AND "notes"."id" IN ($17, $18)
  AND "notes"."note_type_id" = $19
  AND "notes"."note_type_id" IN ($20, $21)
  AND "notes"."share_token" IS NOT NULL
  AND ((CAST(("notes"."meta" #> '{colour}') AS text) LIKE $22 ESCAPE '\'))
  AND notes.owner_id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $23
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
  ("notes"."meta" #>> '{colour}') DESC NULLS LAST,
  "notes"."start_date" ASC NULLS LAST,
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  $24
OFFSET
  $25;
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
  );
-- params: [3]

-- NoteRepository.timeline
SELECT
  sum(
    CASE
      WHEN "notes"."created_at" >= $1
      AND "notes"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "notes"."updated_at" >= $3
      AND "notes"."updated_at" < $4
      AND "notes"."updated_at" > "notes"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "notes"
WHERE
  "notes"."name" ILIKE CAST($5 AS text) ESCAPE '\'
  AND "notes"."owner_id" IN (
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
  AND (
    (
      "notes"."created_at" >= $7
      AND "notes"."created_at" < $8
    )
    OR (
      "notes"."updated_at" >= $9
      AND "notes"."updated_at" < $10
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
      AND nt.tag_id = $1
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
  "notes"."id"
LIMIT
  $3;
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","diary","","{}",4,null,null,null]

-- NoteRepository.update
UPDATE "notes"
SET
  "name" = $1,
  "description" = $2,
  "updated_at" = $3
WHERE
  "notes"."id" = $4
  AND "notes"."owner_id" IN (
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
  );
-- params: ["journal","text","2024-06-01T12:00:00.000Z",7,3]

-- NoteRepository.remove
DELETE FROM "notes"
WHERE
  "notes"."id" IN ($1, $2)
  AND "notes"."owner_id" IN (
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
-- params: [7,8,3]

-- NoteRepository.existing (groups)
SELECT
  "groups"."id"
FROM
  "groups"
WHERE
  "groups"."id" IN ($1, $2)
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
-- params: [4,5,3]

-- NoteRepository.setLinks (tags)
DELETE FROM "note_tags"
WHERE
  "note_id" = $1;
-- params: [7]

INSERT INTO
  "note_tags" ("note_id", "tag_id")
VALUES
  ($1, $2),
  ($3, $4);
-- params: [7,1,7,2]

-- NoteRepository.setLinks (resources, cleared)
DELETE FROM "resource_notes"
WHERE
  "note_id" = $1
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
  "note_id" = $1;
-- params: [7]

-- NoteRepository.groupsOf
SELECT
  "groups".*,
  "rn"."note_id"
FROM
  "groups_related_notes" AS "rn"
  INNER JOIN "groups" ON "groups"."id" = "rn"."group_id"
WHERE
  "rn"."note_id" IN ($1, $2)
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
  "rn"."note_id" IN ($1)
  AND "r"."owner_id" IN (
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
  "r"."name",
  "r"."id";
-- params: [7,3]

-- NoteRepository.group
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" = $1
  AND "groups"."id" IN (
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
-- params: [4,3]

-- NoteRepository.noteTypes
SELECT
  *
FROM
  "note_types"
WHERE
  "id" IN ($1, $2);
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
