// `stacks clips key create --name N --role R [--scope TAG]`: mints a key straight into the
// database of --data-dir and prints it once. This is how the first admin key is made (§6.6).
import { ConfigError, flagHelp, parseFlags } from '../../core/config/flags.js';
import { clipFlags, keyCreateFlags, toClipConfig } from '../config.js';
import { openStore } from '../store.js';
import { TagRepository } from '../tags/repository.js';
import { KeyService } from './service.js';

export const KEY_USAGE = 'stacks clips key create --name NAME [--role viewer|editor|admin] [--scope TAG] [--data-dir DIR]';

export async function keyCommand(argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'create') throw new ConfigError(`unknown key command "${action ?? ''}"; usage: ${KEY_USAGE}`);
  const { values } = parseFlags(keyCreateFlags, rest);
  if (values.help) {
    out(`${KEY_USAGE}\n\n${flagHelp(keyCreateFlags)}`);
    return;
  }
  if (values.name.trim() === '') throw new ConfigError('--name is required');
  const base = parseFlags(clipFlags, [], {}).values;
  const store = await openStore(toClipConfig({ ...base, 'data-dir': values['data-dir'] }), undefined, () => undefined);
  try {
    let scopedTagId: number | undefined;
    if (values.scope !== '') {
      const tags = new TagRepository(store.ctx.db);
      const byName = await tags.findByName(values.scope.trim());
      const byId = !byName && /^[0-9]+$/.test(values.scope) ? await tags.find(Number(values.scope)) : undefined;
      const tag = byName ?? byId;
      if (!tag) throw new ConfigError(`--scope: no tag named (or with id) "${values.scope}"; create the tag first`);
      scopedTagId = tag.id;
    }
    const { key, info } = await new KeyService(store.ctx).create({ name: values.name, role: values.role, scoped_tag_id: scopedTagId });
    out(key);
    const scope = info.scoped_tag_name ? `, scoped to "${info.scoped_tag_name}"` : '';
    console.error(`created ${info.role} key ${info.id} "${info.name}"${scope} (prefix ${info.key_prefix}); it is shown only this once`);
  } finally {
    await store.close();
  }
}
