-- Word count: counts the words of every new text clip into its metadata, and offers a card
-- button that shows the figures of one clip in a dialog.
Plugin = {
  name = "Word count",
  version = "1.0.0",
  description = "Stores word and line counts of text clips as metadata",
  author = "Stacks",
  events = {"clip:created"},
  settings = {
    {key = "min_words", type = "text", label = "Only record clips with at least this many words", default = "1"},
  },
  ui = {
    card_actions = {
      {id = "show_counts", label = "Word count", file_types = {"text/*", "application/json"}},
    },
  },
}

local function is_text(content_type)
  return content_type:sub(1, 5) == "text/" or content_type == "application/json"
end

local function count(text)
  local words, lines = 0, 0
  for _ in text:gmatch("%S+") do words = words + 1 end
  for _ in (text .. "\n"):gmatch("[^\n]*\n") do lines = lines + 1 end
  return words, lines
end

-- Settings are read from storage under their key; unset means the plugin's own default.
local function min_words()
  return tonumber(storage.get("min_words") or "1") or 1
end

function on_clip_created(data)
  if not is_text(data.content_type) then return end
  local text = clips.get_data(data.id)
  if not text then return end
  local words, lines = count(text)
  if words < min_words() then return end
  metadata.set(data.id, "words", tostring(words))
  metadata.set(data.id, "lines", tostring(lines))
  storage.set("counted", tostring((tonumber(storage.get("counted")) or 0) + 1))
end

function on_ui_action(action_id, clip_ids, options)
  if action_id ~= "show_counts" or #clip_ids == 0 then
    return {success = false, error = "choose a text clip"}
  end
  local text, content_type = clips.get_data(clip_ids[1])
  if not text then return {success = false, error = content_type} end
  local words, lines = count(text)
  modal.show({
    title = "Word count",
    content = string.format("**%d** words on **%d** lines", words, lines),
  })
  return {success = true}
end
