/** Handlers of the `templates` namespace (contract/templates.ts); the template itself is app/template.ts's. */
import { DATA_SHEETS } from '../../workbook/registry.js';
import { COMBINED_TEMPLATE_FILE, templateFileName } from '../../workbook/template.js';
import type { DataSheetName } from '../../workbook/types.js';
import { resolveConnection, withClient } from '../../app/profiles.js';
import { generateTemplate } from '../../app/template.js';
import type { NamespaceHandlers } from '../contract.js';
import type { templatesProcedures } from '../../contract/templates.js';
import type { AppServices } from '../../app/services.js';

export const templatesHandlers: NamespaceHandlers<keyof typeof templatesProcedures, AppServices> = {
  'templates.list': async () => ({
    combinedFileName: COMBINED_TEMPLATE_FILE,
    sheets: DATA_SHEETS.map((d) => ({
      name: d.name as DataSheetName,
      fileName: templateFileName(d.name as DataSheetName),
    })),
  }),

  'templates.generate': async (input, app) => {
    const conn = input.withReferenceData ? await resolveConnection(app) : null;
    const t = conn
      ? await withClient(conn, (reference) => generateTemplate(input.sheet, { reference, lang: input.lang }), {
          timeoutMs: 30_000,
        })
      : await generateTemplate(input.sheet, { lang: input.lang });
    for (const note of t.referenceData?.notes ?? []) app.log.info({ procedure: 'templates.generate' }, note);
    return {
      fileName: t.fileName,
      mimeType: t.mimeType,
      dataBase64: t.bytes.toString('base64'),
      byteLength: t.bytes.length,
      referenceData:
        conn && t.referenceData
          ? { profileId: conn.profileId, ...t.referenceData.counts, skipped: t.referenceData.skipped }
          : null,
    };
  },
};
