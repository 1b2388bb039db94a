/** Handlers of the `connection` namespace (contract/connection.ts): app info, preferences, profiles, sandbox, check. */
import { SANDBOX_PROFILE_ID } from '../../settings/settings.js';
import { checkConnection, keyRefusal } from '../../app/connection-check.js';
import {
  profilesState,
  profileView,
  removeProfile,
  resolveConnection,
  saveProfileWithKey,
} from '../../app/profiles.js';
import type { NamespaceHandlers } from '../contract.js';
import type { connectionProcedures } from '../../contract/connection.js';
import { AppError } from '../../app/errors.js';
import type { AppServices } from '../../app/services.js';

async function emitProfiles(app: AppServices) {
  const state = await profilesState(app);
  app.emit('profiles.changed', state);
  return state;
}

export const connectionHandlers: NamespaceHandlers<keyof typeof connectionProcedures, AppServices> = {
  'app.info': async (_input, app) => ({
    name: 'Supply Loader',
    version: app.appVersion,
    mode: app.mode,
    platform: app.platform,
    secretStorage: app.secrets.info(),
  }),

  'settings.get': async (_input, app) => {
    const { language, theme } = app.settings.snapshot();
    return { language, theme };
  },

  'settings.update': async (input, app) => {
    const { language, theme } = app.settings.updatePreferences(input);
    return { language, theme };
  },

  'profiles.list': async (_input, app) => profilesState(app),

  'profiles.save': async (input, app) => {
    // A key the service refuses is never saved (nor offered as "Use this connection"): the form stays open.
    if (input.apiKey !== undefined) {
      const refused = await keyRefusal(input.baseUrl, input.apiKey);
      if (refused)
        throw new AppError(
          'api_error',
          `The service at ${input.baseUrl} refused this API key (HTTP ${refused.status}): it is unknown, revoked, expired or mistyped. The profile was not saved.`,
          { errCode: refused.errCode, status: refused.status },
        );
    }
    const saved = await saveProfileWithKey(app, {
      ...(input.profileId !== undefined ? { id: input.profileId } : {}),
      name: input.name,
      baseUrl: input.baseUrl,
      ...(input.apiKey !== undefined ? { apiKey: input.apiKey } : {}),
      ...(input.removeKey ? { removeKey: true } : {}),
    });
    await emitProfiles(app);
    return profileView(app, saved.id);
  },

  'profiles.delete': async (input, app) => {
    await removeProfile(app, input.profileId);
    return emitProfiles(app);
  },

  'profiles.select': async (input, app) => {
    app.settings.selectProfile(input.profileId);
    if (input.profileId === SANDBOX_PROFILE_ID) await app.sandbox.start('demo');
    return emitProfiles(app);
  },

  'sandbox.status': async (_input, app) => app.sandbox.status(),

  'sandbox.reset': async (input, app) => {
    const status = await app.sandbox.reset(input.seed);
    await emitProfiles(app);
    return status;
  },

  'connection.check': async (input, app) => checkConnection(await resolveConnection(app, input.profileId)),
};
