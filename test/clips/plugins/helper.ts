// Plugin test helpers: fixture F's plugin files (companion §15.1 items 7 and 8) written into
// the test's directory, installs through the API, and a wait for queued events.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestClips } from '../helper.js';

export const HELLO = `Plugin = { name = "Hello", version = "1.0.0", description = "counts clips", author = "QA",
  events = {"clip:created"},
  settings = { {key = "greeting", type = "text", label = "Greeting", default = "hi"} },
  ui = { card_actions = { {id = "upper", label = "Uppercase", file_types = {"text/*"},
         options = { {id = "suffix", type = "text", label = "Suffix"} } } } } }

function on_clip_created(data)
  storage.set("count", tostring(tonumber(storage.get("count") or "0") + 1))
end

function on_ui_action(action_id, clip_ids, options)
  local text = clips.get_data(clip_ids[1])
  local made = clips.create({ data = string.upper(text) .. (options.suffix or ""),
                              content_type = "text/plain", filename = "upper.txt" })
  return { success = true, result_clip_id = made.id }
end
`;

export const ERR = `Plugin = {name = "Err", version = "1.0.0", events = {"clip:created"}}
function on_clip_created(d) error("boom") end
`;

export const HELLO_JSON = {
  id: 1,
  name: 'Hello',
  version: '1.0.0',
  description: 'counts clips',
  author: 'QA',
  enabled: true,
  status: 'loaded',
  events: ['clip:created'],
  settings: [{ key: 'greeting', type: 'text', label: 'Greeting', default: 'hi' }],
};

/** Writes `source` as <test dir>/srv/<name> and returns its absolute path. */
export function pluginFile(t: TestClips, name: string, source: string): string {
  const dir = join(t.dir, 'srv');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

export interface PluginJson {
  id: number;
  name: string;
  version: string;
  enabled: boolean;
  status: string;
  events: string[];
}

/** Installs a source as a local file through the API; fails the test unless 201. */
export async function install(t: TestClips, name: string, source: string): Promise<PluginJson> {
  const r = await t.req<PluginJson>(t.admin, 'POST', '/plugins', { source: pluginFile(t, name, source) });
  if (r.status !== 201) throw new Error(`install ${name}: ${r.status} ${r.text}`);
  return r.body;
}

/** Every event queued so far has been handled by every loaded plugin. */
export const settled = (t: TestClips) => t.svc.services.pluginHost.idle();

export async function storage(t: TestClips, id: number): Promise<Record<string, string>> {
  const r = await t.req<Record<string, string>>(t.admin, 'GET', `/plugins/${id}/storage`);
  if (r.status !== 200) throw new Error(`storage ${id}: ${r.status} ${r.text}`);
  return r.body;
}

let seed = 0;
/** An upload of bytes never seen before. */
export const freshUpload = (t: TestClips, key: string) => t.upload(key, { filename: `new-${++seed}.txt`, type: 'text/plain', data: `fresh ${seed} ${Math.random()}` });

/** An action plugin: `body` is the Lua code of on_ui_action's body (one global action "run"). */
export function actionPlugin(name: string, body: string, extra = ''): string {
  return `Plugin = { name = "${name}", version = "1.0.0", ${extra}
  ui = { global_actions = { {id = "run", label = "Run"} } } }
function on_ui_action(action_id, clip_ids, options)
${body}
end
`;
}
