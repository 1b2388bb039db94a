/**
 * The one handler table behind both transports. No electron import: the Electron main process and the
 * browser-mode HTTP server both call dispatch() with the same table and their own AppServices.
 */
import type { z } from 'zod';
import { SANDBOX_PROFILE_ID } from '../settings/settings.js';
import type { ParsedInput, Procedures } from './contract.js';
import type { ProcedureName } from './names.js';
import { DATA_SHEETS } from '../workbook/registry.js';
import { COMBINED_TEMPLATE_FILE, templateFileName } from '../workbook/template.js';
import type { DataSheetName } from '../workbook/types.js';
import { checkConnection, keyRefusal } from '../app/connection-check.js';
import { AppError } from './errors.js';
import {
  profilesState,
  profileView,
  removeProfile,
  resolveConnection,
  saveProfileWithKey,
  withClient,
} from '../app/profiles.js';
import { generateTemplate } from '../app/template.js';
import type { AppServices } from './services.js';
import { workHandlers } from './handlers-work.js';

export type Handler<N extends ProcedureName> = (
  input: ParsedInput<N>,
  app: AppServices,
) => Promise<z.input<Procedures[N]['output']>>;
export type HandlerTable = { [N in ProcedureName]: Handler<N> };

async function emitProfiles(app: AppServices) {
  const state = await profilesState(app);
  app.emit('profiles.changed', state);
  return state;
}

export const handlers: HandlerTable = {
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

  'templates.list': async () => ({
    combinedFileName: COMBINED_TEMPLATE_FILE,
    sheets: DATA_SHEETS.map((d) => ({ name: d.name as DataSheetName, fileName: templateFileName(d.name as DataSheetName) })),
  }),

  'templates.generate': async (input, app) => {
    const conn = input.withReferenceData ? await resolveConnection(app) : null;
    const t = conn
      ? await withClient(conn, (reference) => generateTemplate(input.sheet, { reference }), { timeoutMs: 30_000 })
      : await generateTemplate(input.sheet);
    for (const note of t.referenceData?.notes ?? []) app.log.info({ procedure: 'templates.generate' }, note);
    return {
      fileName: t.fileName,
      mimeType: t.mimeType,
      dataBase64: t.bytes.toString('base64'),
      byteLength: t.bytes.length,
      referenceData:
        conn && t.referenceData ? { profileId: conn.profileId, ...t.referenceData.counts, skipped: t.referenceData.skipped } : null,
    };
  },

  'files.pickWorkbook': async (_input, app) => {
    if (!app.dialogs) return { supported: false, file: null };
    const chosen = await app.dialogs.openWorkbook();
    return { supported: true, file: chosen ? app.files.registerPath(chosen) : null };
  },

  'files.upload': async (input, app) => app.files.registerUpload(input.name, Buffer.from(input.dataBase64, 'base64')),

  'files.takeOpened': async (_input, app) => ({ files: app.files.takeOpened() }),

  // Import, Jobs, Export and LCA (handlers-work.ts)
  ...workHandlers,
};
