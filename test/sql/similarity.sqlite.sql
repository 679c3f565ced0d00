-- SimilarityRepository.neighbours
SELECT
  CASE
    WHEN p.resource_id1 = ? THEN p.resource_id2
    ELSE p.resource_id1
  END AS id,
  COALESCE(p.p_distance, p.hamming_distance) AS distance
FROM
  resource_similarities p
WHERE
  (
    p.resource_id1 = ?
    OR p.resource_id2 = ?
  )
  AND COALESCE(p.p_distance, p.hamming_distance) <= ?
ORDER BY
  distance,
  id
LIMIT
  ?;
-- params: [7,7,7,8,50]

-- SimilarityRepository.neighbours (with the average-hash check)
SELECT
  CASE
    WHEN p.resource_id1 = ? THEN p.resource_id2
    ELSE p.resource_id1
  END AS id,
  COALESCE(p.p_distance, p.hamming_distance) AS distance
FROM
  resource_similarities p
WHERE
  (
    p.resource_id1 = ?
    OR p.resource_id2 = ?
  )
  AND COALESCE(p.p_distance, p.hamming_distance) <= ?
  AND (
    p.a_distance IS NULL
    OR p.a_distance <= ?
  )
ORDER BY
  distance,
  id
LIMIT
  ?;
-- params: [7,7,7,8,5,12]

-- SimilarityRepository.identicalDhash
SELECT
  h2.resource_id AS id
FROM
  image_hashes h1
  JOIN image_hashes h2 ON h2.d_hash = h1.d_hash
  AND h2.resource_id <> h1.resource_id
  AND h2.status = 'ok'
WHERE
  h1.resource_id = ?
  AND h1.d_hash <> ''
  AND h1.status = 'ok'
ORDER BY
  h2.resource_id
LIMIT
  ?;
-- params: [7,50]

-- SimilarityRepository.hashOf
SELECT
  *
FROM
  "image_hashes"
WHERE
  "resource_id" = ?;
-- params: [7]

-- SimilarityRepository.countSharing (library-wide)
SELECT
  count(*) AS n
FROM
  (
    SELECT DISTINCT
      rt.resource_id
    FROM
      resource_tags rt
    WHERE
      rt.tag_id IN (?, ?)
      AND rt.resource_id <> ?
  ) s;
-- params: [1,2,7]

-- SimilarityRepository.countSharing (owner group)
SELECT
  count(*) AS n
FROM
  (
    SELECT DISTINCT
      rt.resource_id
    FROM
      resource_tags rt
      JOIN resources r ON r.id = rt.resource_id
      AND r.owner_id = ?
    WHERE
      rt.tag_id IN (?, ?)
      AND rt.resource_id <> ?
  ) s;
-- params: [3,1,2,7]

-- SimilarityRepository.usageSharing
SELECT
  t.tag_id,
  count(*) AS n
FROM
  resource_tags t
  JOIN tags g ON g.id = t.tag_id
WHERE
  t.resource_id IN (
    SELECT DISTINCT
      rt.resource_id
    FROM
      resource_tags rt
      JOIN resources r ON r.id = rt.resource_id
      AND r.owner_id = ?
    WHERE
      rt.tag_id IN (?, ?)
      AND rt.resource_id <> ?
  )
  AND t.tag_id NOT IN (?, ?)
GROUP BY
  t.tag_id,
  g.name
ORDER BY
  n DESC,
  g.name,
  t.tag_id
LIMIT
  ?;
-- params: [3,1,2,7,1,2,20]

-- SimilarityRepository.countTaggedMembers
SELECT
  count(DISTINCT rt.resource_id) AS n
FROM
  resource_tags rt
WHERE
  rt.resource_id IN (
    SELECT
      r.id
    FROM
      resources r
    WHERE
      r.owner_id = ?
      AND r.id <> ?
  );
-- params: [3,7]

-- SimilarityRepository.usageInGroup
SELECT
  t.tag_id,
  count(*) AS n
FROM
  resource_tags t
  JOIN tags g ON g.id = t.tag_id
WHERE
  t.resource_id IN (
    SELECT
      r.id
    FROM
      resources r
    WHERE
      r.owner_id = ?
      AND r.id <> ?
  )
  AND t.tag_id NOT IN (?)
GROUP BY
  t.tag_id,
  g.name
ORDER BY
  n DESC,
  g.name,
  t.tag_id
LIMIT
  ?;
-- params: [3,7,1,20]

-- SimilarityRepository.usageInGroup (nothing applied)
SELECT
  t.tag_id,
  count(*) AS n
FROM
  resource_tags t
  JOIN tags g ON g.id = t.tag_id
WHERE
  t.resource_id IN (
    SELECT
      r.id
    FROM
      resources r
    WHERE
      r.owner_id = ?
      AND r.id <> ?
  )
GROUP BY
  t.tag_id,
  g.name
ORDER BY
  n DESC,
  g.name,
  t.tag_id
LIMIT
  ?;
-- params: [3,7,20]

-- SimilarityRepository.unhashed
SELECT
  "resources"."id"
FROM
  "resources"
WHERE
  "resources"."content_type" IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      image_hashes h
    WHERE
      h.resource_id = resources.id
  )
ORDER BY
  "resources"."id" DESC
LIMIT
  ?;
-- params: ["image/jpeg","image/png",100]

-- SimilarityRepository.legacyHashed
SELECT
  "resource_id"
FROM
  "image_hashes"
WHERE
  "hash_version" IS NULL
ORDER BY
  "resource_id" DESC
LIMIT
  ?;
-- params: [100]

-- SimilarityRepository.saveHash
INSERT INTO
  "image_hashes" (
    "resource_id",
    "a_hash",
    "d_hash",
    "a_hash_int",
    "d_hash_int",
    "p_hash_int",
    "p_chunk0",
    "p_chunk1",
    "p_chunk2",
    "p_chunk3",
    "hash_version",
    "status"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("resource_id") DO UPDATE
SET
  "a_hash" = ?,
  "d_hash" = ?,
  "a_hash_int" = ?,
  "d_hash_int" = ?,
  "p_hash_int" = ?,
  "p_chunk0" = ?,
  "p_chunk1" = ?,
  "p_chunk2" = ?,
  "p_chunk3" = ?,
  "hash_version" = ?,
  "status" = ?;
-- params: [7,"ff00ff00ff00ff00","00ff00ff00ff00ff",-1,2,3,1,2,3,4,2,"ok","ff00ff00ff00ff00","00ff00ff00ff00ff",-1,2,3,1,2,3,4,2,"ok"]

-- SimilarityRepository.removeHash
DELETE FROM "image_hashes"
WHERE
  "resource_id" = ?;
-- params: [7]

-- SimilarityRepository.removePairsOf
DELETE FROM "resource_similarities"
WHERE
  (
    "resource_id1" = ?
    OR "resource_id2" = ?
  );
-- params: [7,7]

-- SimilarityRepository.removeAllPairs
DELETE FROM "resource_similarities";
-- params: []

-- SimilarityRepository.removeFailed
DELETE FROM "image_hashes"
WHERE
  "status" = ?;
-- params: ["failed"]

-- SimilarityRepository.countMatchable
SELECT
  count(*) AS "n"
FROM
  "image_hashes"
WHERE
  "status" = ?
  AND "hash_version" = ?;
-- params: ["ok",2]

-- SimilarityRepository.matchableAfter
SELECT
  "resource_id",
  "a_hash",
  "d_hash",
  "p_chunk0",
  "p_chunk1",
  "p_chunk2",
  "p_chunk3"
FROM
  "image_hashes"
WHERE
  "status" = ?
  AND "hash_version" = ?
  AND "resource_id" > ?
ORDER BY
  "resource_id"
LIMIT
  ?;
-- params: ["ok",2,0,100]

-- SimilarityRepository.candidates
SELECT
  "resource_id",
  "p_chunk0",
  "p_chunk1",
  "p_chunk2",
  "p_chunk3",
  "a_hash",
  "d_hash"
FROM
  "image_hashes"
WHERE
  "resource_id" <> ?
  AND "status" = ?
  AND "hash_version" = ?
  AND (
    "p_chunk0" IN (?, ?)
    OR "p_chunk1" IN (?)
    OR "p_chunk2" IN (?)
    OR "p_chunk3" IN (?, ?)
  );
-- params: [7,"ok",2,1,2,3,4,5,6]

-- SimilarityRepository.candidates (only lower ids)
SELECT
  "resource_id",
  "p_chunk0",
  "p_chunk1",
  "p_chunk2",
  "p_chunk3",
  "a_hash",
  "d_hash"
FROM
  "image_hashes"
WHERE
  "resource_id" < ?
  AND "status" = ?
  AND "hash_version" = ?
  AND (
    "p_chunk0" IN (?)
    OR "p_chunk1" IN (?)
    OR "p_chunk2" IN (?)
    OR "p_chunk3" IN (?)
  );
-- params: [7,"ok",2,1,2,3,4]

-- SimilarityRepository.savePair
INSERT INTO
  "resource_similarities" ("resource_id1", "resource_id2", "hamming_distance", "p_distance", "a_distance")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("resource_id1", "resource_id2") DO UPDATE
SET
  "hamming_distance" = ?,
  "p_distance" = ?,
  "a_distance" = ?;
-- params: [7,9,3,2,null,3,2,null]
