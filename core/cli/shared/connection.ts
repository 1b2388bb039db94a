/**
 * Where the CLI gets its connection from: the base URL from --base-url, a saved profile or
 * SUPPLY_LOADER_BASE_URL; the key from --api-key-file, a saved profile or SUPPLY_LOADER_API_KEY — never from a
 * plain flag value (it would sit in the shell history and the process list).
 */
import fs from 'node:fs';
import path from 'node:path';
import { API_KEY_PATTERN, maskApiKey } from '../../spec/constants.js';
import {
  BaseUrl,
  openSecretStore,
  keychainFor,
  type SharedSecretStore,
  JsonFile,
  SANDBOX_PROFILE_ID,
  SettingsStore,
  normaliseBaseUrl,
  userConfigDir,
} from '../../settings/index.js';
import type { StoredProfile } from '../../settings/index.js';
import { CliUsageError } from './errors.js';

export const ENV_API_KEY = 'SUPPLY_LOADER_API_KEY';
export const ENV_BASE_URL = 'SUPPLY_LOADER_BASE_URL';
export const ENV_JOBS_DIR = 'SUPPLY_LOADER_JOBS_DIR';

export interface ConnectionOptions {
  'base-url'?: string;
  'api-key-file'?: string;
  profile?: string;
}

export interface ResolvedConnection {
  baseUrl: string;
  apiKey: string;
  maskedKey: string;
  /** Where the key came from, in words (for `me` and error messages). */
  keySource: string;
  profile?: string;
}

/** Settings and key store of the CLI: the same dir, settings file and keychain entries as the app and browser mode. */
export function profileStores(env: NodeJS.ProcessEnv): {
  dir: string;
  settings: SettingsStore;
  secrets: SharedSecretStore;
} {
  const dir = userConfigDir(env);
  return {
    dir,
    settings: new SettingsStore(new JsonFile(path.join(dir, 'settings.json'))),
    secrets: openSecretStore(dir, keychainFor(env)),
  };
}

export function findProfile(settings: SettingsStore, nameOrId: string): StoredProfile | undefined {
  const all = settings.snapshot().profiles;
  const wanted = nameOrId.trim().toLowerCase();
  return all.find((p) => p.id === nameOrId) ?? all.find((p) => p.name.trim().toLowerCase() === wanted);
}

export function checkBaseUrl(raw: string, source: string): string {
  const parsed = BaseUrl.safeParse(raw);
  if (!parsed.success)
    throw new CliUsageError(`${source}: ${parsed.error.issues[0]?.message ?? 'not a valid URL'} (got "${raw}")`);
  return normaliseBaseUrl(parsed.data);
}

/** A key must look like svc-<key_id>-<secret>; the message never repeats what was given. */
export function checkApiKey(raw: string, source: string): string {
  const key = raw.trim();
  if (key === '')
    throw new CliUsageError(`${source} is empty: it must hold an API key of the form svc-<key_id>-<secret>.`);
  if (!API_KEY_PATTERN.test(key)) {
    throw new CliUsageError(
      `${source} does not hold an API key of the form svc-<key_id>-<secret> (one line, nothing else).`,
    );
  }
  return key;
}

export function readApiKeyFile(file: string, cwd: string): string {
  const p = path.resolve(cwd, file);
  let text: string;
  try {
    text = fs.readFileSync(p, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliUsageError(
      code === 'ENOENT'
        ? `--api-key-file: there is no file ${p}`
        : `--api-key-file: cannot read ${p} (${code ?? 'error'})`,
    );
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length !== 1)
    throw new CliUsageError(`--api-key-file ${p} must hold exactly one key line (found ${lines.length}).`);
  return checkApiKey(lines[0], `--api-key-file ${p}`);
}

export async function resolveConnection(
  values: ConnectionOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<ResolvedConnection> {
  let baseUrl: string | undefined;
  let apiKey: string | undefined;
  let keySource = '';
  let profileName: string | undefined;

  if (values['base-url'] !== undefined) baseUrl = checkBaseUrl(values['base-url'], '--base-url');
  if (values['api-key-file'] !== undefined) {
    apiKey = readApiKeyFile(values['api-key-file'], cwd);
    keySource = '--api-key-file';
  }

  if (values.profile !== undefined) {
    if (values.profile.trim().toLowerCase() === SANDBOX_PROFILE_ID) {
      throw new CliUsageError(
        'The built-in Sandbox profile exists only inside the desktop app. Start a sandbox with "supply-loader sandbox" and pass its --base-url and key.',
      );
    }
    const { settings, secrets, dir } = profileStores(env);
    const profile = findProfile(settings, values.profile);
    if (!profile) {
      const names = settings.snapshot().profiles.map((p) => p.name);
      throw new CliUsageError(
        `There is no saved profile "${values.profile}" in ${dir}` +
          (names.length
            ? ` (saved: ${names.join(', ')})`
            : ' (none saved: add one with "supply-loader profile add NAME --base-url URL")'),
      );
    }
    profileName = profile.name;
    baseUrl ??= profile.baseUrl;
    if (apiKey === undefined) {
      const stored = await secrets.get(profile.id);
      if (stored !== undefined) {
        apiKey = checkApiKey(stored, `the key saved for profile "${profile.name}"`);
        keySource = `profile "${profile.name}"`;
      }
    }
  }

  if (baseUrl === undefined && env[ENV_BASE_URL]) baseUrl = checkBaseUrl(env[ENV_BASE_URL] ?? '', ENV_BASE_URL);
  if (apiKey === undefined && env[ENV_API_KEY] !== undefined && env[ENV_API_KEY] !== '') {
    apiKey = checkApiKey(env[ENV_API_KEY] ?? '', ENV_API_KEY);
    keySource = ENV_API_KEY;
  }

  if (baseUrl === undefined) {
    throw new CliUsageError(`No service given: pass --base-url URL, --profile NAME or set ${ENV_BASE_URL}.`);
  }
  if (apiKey === undefined) {
    throw new CliUsageError(
      `No API key given: set ${ENV_API_KEY}, pass --api-key-file FILE or use a saved profile (--profile NAME).`,
    );
  }
  return {
    baseUrl,
    apiKey,
    maskedKey: maskApiKey(apiKey),
    keySource,
    ...(profileName ? { profile: profileName } : {}),
  };
}

export function defaultJobsDir(env: NodeJS.ProcessEnv): string {
  return path.join(userConfigDir(env), 'jobs');
}

export function resolveJobsDir(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (flag !== undefined && flag.trim() !== '') return path.resolve(cwd, flag);
  const fromEnv = env[ENV_JOBS_DIR];
  if (fromEnv && fromEnv.trim() !== '') return path.resolve(cwd, fromEnv);
  return defaultJobsDir(env);
}
