/** The `export` namespace: a collection exported to a workbook, and the files the app makes (`downloads.*`: opaque tickets, saved or opened on the main side). */
import { z } from 'zod';
import { EXPORT_SELECTIONS } from '../names.js';
import { DownloadId, DownloadTicketSchema, NonNegInt, type ProcedureDef, Text } from './common.js';

export const ExportCollectionSchema = z.enum(EXPORT_SELECTIONS);

export const exportProcedures = {
  'downloads.save': {
    summary:
      'Save a file the app made with the native save dialog (desktop only: supported=false in browser mode, which uses GET /download/<id>)',
    input: z.object({ downloadId: DownloadId }).strict(),
    output: z.object({ supported: z.boolean(), saved: z.boolean(), fileName: Text.nullable() }),
  },
  'downloads.open': {
    summary: 'Open a file the app made with the program the system uses for it (desktop only)',
    input: z.object({ downloadId: DownloadId }).strict(),
    output: z.object({ supported: z.boolean(), opened: z.boolean() }),
  },
  'export.run': {
    summary: 'Export a collection (or all) of the active connection to a workbook in the template format',
    input: z.object({ collection: ExportCollectionSchema, ref: z.string().max(100).optional() }).strict(),
    output: z.object({
      download: DownloadTicketSchema,
      sheets: z.array(z.object({ sheet: Text, rows: NonNegInt })),
      warnings: z.array(Text),
      requests: NonNegInt,
    }),
  },
} as const satisfies Record<string, ProcedureDef>;

export const exportEvents = {
  'export.progress': z.object({ ref: Text, collection: Text, done: NonNegInt }),
} as const satisfies Record<string, z.ZodType>;
