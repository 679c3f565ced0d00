-- MetaKeyRepository.keys (groups)
SELECT DISTINCT
  k AS key
FROM
  "groups" t,
  jsonb_object_keys(
    CASE
      WHEN jsonb_typeof((t.meta #> '{}')) = 'object' THEN (t.meta #> '{}')
      ELSE '{}'::jsonb
    END
  ) k
ORDER BY
  k;
-- params: []

-- MetaKeyRepository.keys (resources)
SELECT DISTINCT
  k AS key
FROM
  "resources" t,
  jsonb_object_keys(
    CASE
      WHEN jsonb_typeof((t.meta #> '{}')) = 'object' THEN (t.meta #> '{}')
      ELSE '{}'::jsonb
    END
  ) k
ORDER BY
  k;
-- params: []
