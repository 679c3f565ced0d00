-- Tidy: archives clips older than a number of days, on demand (a global action with a form
-- and task progress) and once a day on its own.
Plugin = {
  name = "Tidy",
  version = "1.0.0",
  description = "Archives old clips on demand and once a day",
  author = "Stacks",
  schedules = {
    {name = "daily_tidy", interval = 86400},
  },
  settings = {
    {key = "days", type = "text", label = "Archive clips older than (days)", default = "30"},
  },
  ui = {
    global_actions = {
      {id = "tidy_now", label = "Archive old clips", options = {
        {id = "days", type = "range", label = "Older than (days)", min = 0, max = 3650, default = 30},
        {id = "dry_run", type = "checkbox", label = "Only count them", default = false},
      }},
    },
  },
}

-- Archives (or counts) live, unarchived clips created more than `days` days ago.
local function tidy(days, dry_run)
  local cutoff = utils.time() - days * 86400
  local old = {}
  local offset = 0
  while true do
    local page = clips.list({limit = 1000, offset = offset})
    if #page == 0 then break end
    for _, clip in ipairs(page) do
      if not clip.is_archived and clip.created_at < cutoff then old[#old + 1] = clip.id end
    end
    offset = offset + #page
  end
  if dry_run then return #old end
  local task_id = task.start("Archive old clips", #old)
  for i, id in ipairs(old) do
    clips.archive(id)
    task.progress(task_id, i)
  end
  task.complete(task_id)
  return #old
end

function daily_tidy()
  local n = tidy(tonumber(storage.get("days") or "30") or 30, false)
  log("archived " .. n .. " clips")
end

function on_ui_action(action_id, clip_ids, options)
  local n = tidy(options.days or 30, options.dry_run == true)
  local verb = options.dry_run and "would archive" or "archived"
  toast.show(string.format("Tidy %s %d clips", verb, n), "success")
  storage.set("last_run", tostring(utils.time()) .. " " .. verb .. " " .. n)
  return {success = true}
end
