/** Handlers of the `export` namespace (contract/export.ts): an export to a workbook, and the files offered. */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileStamp } from '../../app/sessions/downloads.js';
import { exportToWorkbook } from '../../app/export.js';
import { activeConnection, withClient } from '../../app/profiles.js';
import { Throttle } from '../../throttle.js';
import type { NamespaceHandlers } from '../contract.js';
import type { exportProcedures } from '../../contract/export.js';
import { withWords } from '../errors.js';
import type { AppServices } from '../../app/services.js';

type Table = NamespaceHandlers<keyof typeof exportProcedures, AppServices>;

export const exportHandlers: Table = withWords<Table>({
  'downloads.save': async (input, app) => {
    const d = app.sessions.downloads.get(input.downloadId);
    if (!app.dialogs?.saveFile) return { supported: false, saved: false, fileName: null };
    const target = await app.dialogs.saveFile(d.fileName);
    if (!target) return { supported: true, saved: false, fileName: null };
    await copyFile(d.path, target);
    return { supported: true, saved: true, fileName: path.basename(target) };
  },

  'downloads.open': async (input, app) => {
    const d = app.sessions.downloads.get(input.downloadId);
    if (!app.dialogs?.openPath) return { supported: false, opened: false };
    return { supported: true, opened: await app.dialogs.openPath(d.path) };
  },

  'export.run': async (input, app) => {
    const w = app.sessions;
    const ref = input.ref ?? input.collection;
    const throttle = new Throttle();
    const file = w.downloads.tempPath('.xlsx');
    const { data } = await withClient(await activeConnection(app), (client) =>
      exportToWorkbook(client, input.collection, file, {
        onProgress: (p) => {
          if (!throttle.pass()) return;
          app.emit('export.progress', { ref, collection: p.collection, done: p.done });
        },
      }),
    );
    const download = w.downloads.register(file, `supply-loader-export-${input.collection}-${fileStamp()}.xlsx`);
    return {
      download,
      sheets: data.sheets.map((s) => ({ sheet: s.name, rows: s.rows.length })),
      warnings: data.warnings,
      requests: data.requests,
    };
  },
});
