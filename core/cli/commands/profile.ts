/**
 * `supply-loader profile list | add NAME --base-url URL | remove NAME`: saved connections (the same settings
 * and key files browser mode uses, under the user config dir; the key file is owner-only, not encrypted).
 */
import { createApiClient } from '../../api/index.js';
import { removeProfile, saveProfileWithKey } from '../../app/profiles.js';
import { maskApiKey } from '../../spec/constants.js';
import { SettingsError } from '../../settings/index.js';
import { str } from '../shared/args.js';
import { runContext } from '../shared/context.js';
import {
  ENV_API_KEY,
  checkApiKey,
  checkBaseUrl,
  findProfile,
  profileStores,
  readApiKeyFile,
} from '../shared/connection.js';
import { CliUsageError } from '../shared/errors.js';
import { mappingsAction } from '../shared/code-mappings.js';
import { EXIT, type CliCommand } from '../shared/types.js';

export const profileCommand: CliCommand = {
  name: 'profile',
  summary: 'Save, list or remove connection profiles (base URL + key) for --profile NAME',
  usage: `supply-loader profile list
       supply-loader profile add NAME --base-url URL   (key from SUPPLY_LOADER_API_KEY or --api-key-file FILE)
       supply-loader profile remove NAME
       supply-loader profile mappings save FILE.xlsx [--profile NAME]
       supply-loader profile mappings show [--profile NAME] [--json]
       supply-loader profile mappings clear [--profile NAME]
  add checks the key with the service (/v2/me) before saving it. Keys are kept in a file readable only by you
  (not encrypted) under the user config dir (SUPPLY_LOADER_CONFIG_DIR overrides it).
  mappings save remembers the workbook's plants (plant_code, plant_id) and materials (material_code, category,
  material_type_id) sheets in the profile (merged: a code saved again gets the new id). plan and import with
  --profile NAME use them for codes the workbook does not map, before looking the code up on the service.
  Without --profile, mappings works on the active profile, or the only saved one.`,
  options: { 'no-check': { type: 'boolean' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const rc = runContext(ctx);
    const [action, name, ...extra] = positionals;
    if (action === 'mappings') return mappingsAction(rc, values, positionals.slice(1));
    if (extra.length) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`, 'profile');
    const { settings, secrets, dir } = profileStores(rc.env);
    try {
      switch (action) {
        case 'list':
        case undefined: {
          const profiles = await Promise.all(
            settings.snapshot().profiles.map(async (p) => ({
              name: p.name,
              base_url: p.baseUrl,
              key: (await secrets.has(p.id)) ? maskApiKey(await secrets.get(p.id)) : null,
            })),
          );
          if (ctx.json) ctx.stdout(`${JSON.stringify({ config_dir: dir, profiles }, null, 2)}\n`);
          else if (profiles.length === 0) ctx.stdout(`No saved profiles (in ${dir}).\n`);
          else ctx.stdout(profiles.map((p) => `${p.name}\t${p.base_url}\t${p.key ?? '(no key)'}`).join('\n') + '\n');
          return EXIT.ok;
        }
        case 'add': {
          if (!name) throw new CliUsageError('missing NAME', 'profile');
          const rawUrl = str(values, 'base-url');
          if (!rawUrl) throw new CliUsageError('profile add needs --base-url URL', 'profile');
          const baseUrl = checkBaseUrl(rawUrl, '--base-url');
          const file = str(values, 'api-key-file');
          const key = file
            ? readApiKeyFile(file, rc.cwd)
            : rc.env[ENV_API_KEY]
              ? checkApiKey(rc.env[ENV_API_KEY] ?? '', ENV_API_KEY)
              : undefined;
          if (!key)
            throw new CliUsageError(
              `profile add needs a key: set ${ENV_API_KEY} or pass --api-key-file FILE`,
              'profile',
            );
          if (values['no-check'] !== true) {
            const client = createApiClient({ baseUrl, apiKey: key, retry: { maxAttempts: 2 } });
            try {
              await client.me({ signal: ctx.signal });
            } finally {
              await client.close();
            }
          }
          const existing = findProfile(settings, name);
          const saved = await saveProfileWithKey(
            { settings, secrets },
            { ...(existing ? { id: existing.id } : {}), name, baseUrl, apiKey: key },
          );
          const why = secrets.fallbackReason();
          if (why !== null)
            ctx.stderr(
              `warning: no OS keychain could be used (${why}); the key is kept in ${secrets.file.location}, readable only by you but not encrypted.\n`,
            );
          if (ctx.json)
            ctx.stdout(`${JSON.stringify({ name: saved.name, base_url: saved.baseUrl, key: maskApiKey(key) })}\n`);
          else
            ctx.stdout(
              `${existing ? 'Updated' : 'Saved'} profile "${saved.name}": ${saved.baseUrl}, key ${maskApiKey(key)} (in ${dir}).\n`,
            );
          return EXIT.ok;
        }
        case 'remove': {
          if (!name) throw new CliUsageError('missing NAME', 'profile');
          const p = findProfile(settings, name);
          if (!p) throw new CliUsageError(`there is no saved profile "${name}"`, 'profile');
          await removeProfile({ settings, secrets }, p.id);
          if (!ctx.json) ctx.stdout(`Removed profile "${p.name}".\n`);
          else ctx.stdout(`${JSON.stringify({ removed: p.name })}\n`);
          return EXIT.ok;
        }
        default:
          throw new CliUsageError(`unknown action "${action}" (list, add, remove, mappings)`, 'profile');
      }
    } catch (e) {
      if (e instanceof SettingsError) throw new CliUsageError(e.message, 'profile');
      if (e instanceof Error && e.name === 'ZodError')
        throw new CliUsageError('the profile name is not valid (1–100 characters)', 'profile');
      throw e;
    }
  },
};
