/** Connection profiles as the renderer sees them, and the resolution of a profile to {baseUrl, apiKey}. */
import { createApiClient, type ApiClient } from '../api/index.js';
import { maskApiKey } from '../spec/constants.js';
import type { SecretStore } from '../settings/secrets.js';
import { SANDBOX_PROFILE_ID, type SettingsStore, type StoredProfile } from '../settings/settings.js';
import type { ProfileView, ProfilesState } from '../contract/index.js';
import { AppError } from './errors.js';
import type { HostServices } from './host.js';

export const SANDBOX_PROFILE_NAME = 'Sandbox';

async function viewOf(app: HostServices, p: { id: string; name: string; baseUrl: string }): Promise<ProfileView> {
  const masked = await app.secrets.masked(p.id);
  return {
    profileId: p.id,
    name: p.name,
    baseUrl: p.baseUrl,
    builtIn: false,
    hasKey: masked !== undefined,
    maskedKey: masked ?? null,
  };
}

export function sandboxProfileView(app: HostServices): ProfileView {
  const key = app.sandbox.ownerKey();
  return {
    profileId: SANDBOX_PROFILE_ID,
    name: SANDBOX_PROFILE_NAME,
    baseUrl: app.sandbox.baseUrl(),
    builtIn: true,
    hasKey: key !== null,
    maskedKey: key ? maskApiKey(key) : null,
  };
}

export async function profileView(app: HostServices, profileId: string): Promise<ProfileView> {
  if (profileId === SANDBOX_PROFILE_ID) return sandboxProfileView(app);
  const p = app.settings.snapshot().profiles.find((x) => x.id === profileId);
  if (!p) throw new AppError('not_found', 'That profile does not exist (any more).');
  return viewOf(app, p);
}

export async function profilesState(app: HostServices): Promise<ProfilesState> {
  const doc = app.settings.snapshot();
  const stored = await Promise.all(doc.profiles.map((p) => viewOf(app, p)));
  return { activeProfileId: doc.activeProfileId, profiles: [sandboxProfileView(app), ...stored] };
}

export interface Connection {
  profileId: string;
  baseUrl: string;
  apiKey: string;
}

/** Main side only: the base URL and key of a profile (default: the active one), for the core to use. */
export async function resolveConnection(app: HostServices, profileId?: string): Promise<Connection> {
  const id = profileId ?? app.settings.snapshot().activeProfileId;
  if (id === SANDBOX_PROFILE_ID) {
    if (!app.sandbox.baseUrl()) await app.sandbox.start();
    const baseUrl = app.sandbox.baseUrl();
    const apiKey = app.sandbox.ownerKey();
    if (!baseUrl || !apiKey) {
      throw new AppError('unavailable', app.sandbox.status().message ?? 'The embedded sandbox is not running.');
    }
    return { profileId: id, baseUrl, apiKey };
  }
  const p = app.settings.snapshot().profiles.find((x) => x.id === id);
  if (!p) throw new AppError('not_found', 'That profile does not exist (any more).');
  const apiKey = await app.secrets.get(id);
  if (!apiKey)
    throw new AppError(
      'invalid_input',
      `The profile “${p.name}” has no API key yet. Enter one on the Connection screen.`,
    );
  return { profileId: id, baseUrl: p.baseUrl, apiKey };
}

/** Run `work` with a client of the connection, closed afterwards. */
export async function withClient<T>(
  conn: Connection,
  work: (client: ApiClient) => Promise<T>,
  o: { timeoutMs?: number } = {},
): Promise<T> {
  const client = createApiClient({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** The name of a profile as the user knows it (the built-in Sandbox's, a saved one's, else its id). */
export function profileNameOf(app: HostServices, profileId: string): string {
  return profileId === SANDBOX_PROFILE_ID
    ? SANDBOX_PROFILE_NAME
    : (app.settings.snapshot().profiles.find((p) => p.id === profileId)?.name ?? profileId);
}

/** The active connection with its profile's name. */
export async function activeConnection(app: HostServices): Promise<Connection & { profileName: string }> {
  const conn = await resolveConnection(app);
  return { ...conn, profileName: profileNameOf(app, conn.profileId) };
}

/**
 * Save a connection profile and its key, for the CLI's `profile add` and the app's profiles.save: the profile
 * (new, or the one `id` names) first, then its key (`apiKey`), or no key (`removeKey`). The key check before
 * (the service must not refuse the key) is the caller's: the app refuses only a key the service answers 401 to
 * (a profile may be saved offline), the CLI any failure of /v2/me unless --no-check.
 */
export async function saveProfileWithKey(
  stores: { settings: SettingsStore; secrets: Pick<SecretStore, 'set' | 'delete'> },
  p: { id?: string; name: string; baseUrl: string; apiKey?: string; removeKey?: boolean },
): Promise<StoredProfile> {
  const saved = stores.settings.saveProfile({
    ...(p.id !== undefined ? { id: p.id } : {}),
    name: p.name,
    baseUrl: p.baseUrl,
  });
  if (p.apiKey !== undefined) await stores.secrets.set(saved.id, p.apiKey);
  else if (p.removeKey) await stores.secrets.delete(saved.id);
  return saved;
}

/** Remove a profile and its key (`profile remove` and profiles.delete). */
export async function removeProfile(
  stores: { settings: SettingsStore; secrets: Pick<SecretStore, 'delete'> },
  profileId: string,
): Promise<void> {
  stores.settings.deleteProfile(profileId);
  await stores.secrets.delete(profileId);
}
