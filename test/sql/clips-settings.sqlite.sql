-- SettingsRepository.get
SELECT
  "value"
FROM
  "settings"
WHERE
  "key" = ?;
-- params: ["hidden_tags"]

-- SettingsRepository.set
INSERT INTO
  "settings" ("key", "value")
VALUES
  (?, ?)
ON CONFLICT ("key") DO UPDATE
SET
  "value" = ?;
-- params: ["hidden_tags","[3,7]","[3,7]"]
