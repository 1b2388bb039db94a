/** The `templates` namespace: the template sheets and a generated (optionally pre-filled) template. */
import { z } from 'zod';
import { LOCALES } from '../names.js';
import { DATA_SHEET_NAMES } from '../workbook/types.js';
import { Empty, type ProcedureDef } from './common.js';
import { ProfileId } from './connection.js';

export const TemplateSheet = z.enum(DATA_SHEET_NAMES);

export const TemplatesList = z.object({
  combinedFileName: z.string(),
  /** in onboarding order */
  sheets: z.array(z.object({ name: TemplateSheet, fileName: z.string() })),
});

export const GeneratedTemplate = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  /** the .xlsx file, base64 */
  dataBase64: z.string(),
  byteLength: z.number().int(),
  /** present when pre-filled from the connection */
  referenceData: z
    .object({
      profileId: ProfileId,
      plants: z.number().int(),
      materials: z.number().int(),
      products: z.number().int(),
      /** parts the key may not read, left out */
      skipped: z.array(z.object({ part: z.enum(['plants', 'materials', 'products']), errCode: z.string() })),
    })
    .nullable(),
});

export const templatesProcedures = {
  'templates.list': { summary: 'The template sheets in onboarding order', input: Empty, output: TemplatesList },
  'templates.generate': {
    summary: 'Build the combined or a per-sheet template, optionally pre-filled from the active connection',
    input: z
      .object({
        sheet: z.union([z.literal('all'), TemplateSheet]),
        withReferenceData: z.boolean().default(false),
        /** the language of the Instructions sheet and the header notes (the column names stay as they are) */
        lang: z.enum(LOCALES).default('en'),
      })
      .strict(),
    output: GeneratedTemplate,
  },
} as const satisfies Record<string, ProcedureDef>;

export const templatesEvents = {} as const satisfies Record<string, z.ZodType>;
