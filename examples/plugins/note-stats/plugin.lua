-- note-stats: actions for the Stacks library (see docs/plugins.md, "Actions").
-- "Count words" answers at once on a note's page; "Total words" runs in the background for
-- each selected note and reports progress, so a long list does not hold the request.
plugin = {
  name = "note-stats",
  version = "1.0.0",
  description = "Counts the words of notes, at once or as background jobs",
  api_version = 1,
  capabilities = { "actions", "db:read" },
}

local function words(text)
  local n = 0
  for _ in string.gmatch(text or "", "%S+") do n = n + 1 end
  return n
end

function init()
  mah.action({
    id = "word-count",
    label = "Count words",
    entity = "note",
    placement = { "detail", "card" },
    params = {
      { name = "include_name", type = "boolean", label = "Count the name too", default = false },
    },
    handler = function(ctx)
      local note = mah.db.get_note(ctx.entity_id)
      if not note then return { success = false, message = "That note no longer exists." } end
      local n = words(note.description)
      if ctx.params.include_name then n = n + words(note.name) end
      return { success = true, message = note.name .. ": " .. n .. " words", data = { words = n } }
    end,
  })

  mah.action({
    id = "word-total",
    label = "Total words (background)",
    entity = "note",
    placement = { "bulk" },
    async = true,
    bulk_max = 50,
    handler = function(ctx)
      mah.job_progress(ctx.job_id, 10, "Reading the note")
      local note = mah.db.get_note(ctx.entity_id)
      if not note then
        mah.job_fail(ctx.job_id, "note " .. ctx.entity_id .. " no longer exists")
        return
      end
      return { message = "Counted " .. note.name, words = words(note.description) }
    end,
  })
end
