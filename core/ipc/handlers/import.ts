/** Handlers of the `import` namespace (contract/import.ts): files handed in, column mappings, validate, plan, run. */
import { HIGH_CONFIDENCE } from '../../workbook/column-mapping/columns.js';
import { planSession, runSession } from '../../app/sessions/import-run.js';
import { listColumnMappings, saveColumnMapping } from '../../app/column-mappings.js';
import { profileNameOf } from '../../app/profiles.js';
import type { NamespaceHandlers } from '../contract.js';
import type { importProcedures } from '../../contract/import.js';
import { withWords } from '../errors.js';
import type { AppServices } from '../../app/services.js';

type Table = NamespaceHandlers<keyof typeof importProcedures, AppServices>;

export const importHandlers: Table = withWords<Table>({
  'files.pickWorkbook': async (input, app) => {
    if (!app.dialogs) return { supported: false, file: null, files: [] };
    if (input.multiple && app.dialogs.openWorkbooks) {
      const files = (await app.dialogs.openWorkbooks()).map((p) => app.files.registerPath(p));
      return { supported: true, file: files[0] ?? null, files };
    }
    const chosen = await app.dialogs.openWorkbook();
    const file = chosen ? app.files.registerPath(chosen) : null;
    return { supported: true, file, files: file ? [file] : [] };
  },

  'files.upload': async (input, app) => app.files.registerUpload(input.name, Buffer.from(input.dataBase64, 'base64')),

  'files.takeOpened': async (_input, app) => ({ files: app.files.takeOpened() }),

  'import.validate': async (input, app) =>
    app.sessions.imports.validate(
      app,
      app.sessions.jobs.jobsDir,
      [input.fileId, ...(input.moreFileIds ?? [])],
      input.mapping,
      input.checkCodes === true,
    ),

  'import.columns': async (input, app) => ({
    ...(await app.sessions.imports.columns(app, [input.fileId, ...(input.moreFileIds ?? [])], input.sheets)),
    highConfidence: HIGH_CONFIDENCE,
  }),

  'import.columnsPreview': async (input, app) => ({
    sources: await app.sessions.imports.columnsPreview(
      app,
      [input.fileId, ...(input.moreFileIds ?? [])],
      input.mapping,
    ),
  }),

  'mappings.list': async (_input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    return { profileName: profileNameOf(app, profileId), mappings: listColumnMappings(app.settings, profileId) };
  },

  'mappings.save': async (input, app) => {
    const profileId = app.settings.snapshot().activeProfileId;
    saveColumnMapping(app.settings, profileId, input.name, input.mapping);
    return { name: input.name, profileName: profileNameOf(app, profileId) };
  },

  'import.plan': async (input, app) => planSession(app, input),

  'import.planRows': async (input, app) =>
    app.sessions.imports.rows(input.importId, input.filter, input.offset, input.limit),

  'import.run': async (input, app) => ({ jobId: await runSession(app, input.importId, input.skipBlocked) }),

  'import.cancel': async (input, app) => {
    const imports = app.sessions.imports;
    let accepted = false;
    if (input.importId) accepted = imports.cancel(input.importId) || accepted;
    if (input.fileId) accepted = imports.cancel(input.fileId) || accepted;
    return { accepted };
  },

  'import.close': async (input, app) => ({ accepted: app.sessions.imports.close(input.importId) }),
});
