/**
 * The column-mapping contract (docs/workbook-format.md "Column mappings"): per target sheet where
 * its rows come from (`source`: a sheet name or a file-name glob), the header row, which source column is which
 * field, columns to ignore, value translations and constants, plus CSV settings. Strict: an unknown key is an
 * error with its path (a typo must not be ignored).
 *
 * Not to be confused with the *code* mappings of settings/code-mappings.ts (plant/material codes → service ids).
 */
import { z } from 'zod';
import { DATE_ORDERS } from '../coerce.js';
import { DEFINED_IN } from '../references.js';
import { columnsOf, getSheet } from '../registry.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../types.js';

export const COLUMN_MAPPING_VERSION = 1;

export const CSV_DELIMITERS = [';', ',', '\t', '|'] as const;
export const CSV_ENCODINGS = ['utf-8', 'utf-16le', 'windows-1252'] as const;
export const DECIMAL_MARKS = ['.', ','] as const;
export const SUGGESTION_METHODS = ['exact', 'lenient', 'synonym', 'similar', 'values'] as const;

const cellValue = z.union([z.string(), z.number()]);

export const csvSettingsSchema = z.strictObject({
  delimiter: z.enum(CSV_DELIMITERS).optional(),
  encoding: z.enum(CSV_ENCODINGS).optional(),
  decimal: z.enum(DECIMAL_MARKS).optional(),
  date: z.enum(DATE_ORDERS).optional(),
});
export type CsvSettings = z.infer<typeof csvSettingsSchema>;

export const sheetMappingSchema = z.strictObject({
  source: z.string().min(1).optional(),
  header_row: z.number().int().min(1).max(1000).optional(),
  columns: z.record(z.string().min(1), z.string().min(1)).optional(),
  ignore: z.array(z.string().min(1)).optional(),
  values: z.record(z.string(), z.record(z.string(), cellValue)).optional(),
  constants: z.record(z.string(), cellValue).optional(),
});
export type SheetMapping = z.infer<typeof sheetMappingSchema>;

/** Written by `mapping suggest` for people to review; not used when reading. */
const suggestionSchema = z.strictObject({
  sheet: z.enum(DATA_SHEET_NAMES),
  source: z.string(),
  column: z.string(),
  field: z.string(),
  method: z.enum(SUGGESTION_METHODS),
  confidence: z.number().min(0).max(1),
});

export const columnMappingSchema = z
  .strictObject({
    version: z.literal(COLUMN_MAPPING_VERSION),
    name: z.string().min(1).max(200).optional(),
    sheets: z.partialRecord(z.enum(DATA_SHEET_NAMES), sheetMappingSchema),
    csv: csvSettingsSchema.optional(),
    suggestions: z.array(suggestionSchema).optional(),
    unmapped_required: z.partialRecord(z.enum(DATA_SHEET_NAMES), z.array(z.string())).optional(),
  })
  .superRefine((m, ctx) => {
    for (const [sheet, sm] of Object.entries(m.sheets) as [DataSheetName, SheetMapping][]) {
      const fields = new Set(columnsOf(getSheet(sheet)).map(([f]) => f));
      const known = [...fields].join(', ');
      const check = (field: string, path: (string | number)[]) => {
        if (!fields.has(field))
          ctx.addIssue({
            code: 'custom',
            path: ['sheets', sheet, ...path],
            message: `"${field}" is not a field of ${sheet} (fields: ${known})`,
          });
      };
      const seen = new Map<string, string>();
      for (const [header, field] of Object.entries(sm.columns ?? {})) {
        check(field, ['columns', header]);
        const before = seen.get(field);
        if (before !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['sheets', sheet, 'columns', header],
            message: `field ${field} is already the column "${before}"`,
          });
        seen.set(field, header);
      }
      for (const field of Object.keys(sm.values ?? {})) check(field, ['values', field]);
      for (const field of Object.keys(sm.constants ?? {})) {
        if (fields.has(field)) continue;
        const owners = reachedSheetsWith(sheet, field);
        ctx.addIssue({
          code: 'custom',
          path: ['sheets', sheet, 'constants', field],
          message: owners.length
            ? `"${field}" is not a field of ${sheet}: it belongs to the ${owners.join(' and the ')} its rows refer to. ` +
              `Give the constant where those rows are read: ${owners.map((o) => `"sheets": { "${o}": { "constants": { "${field}": ${JSON.stringify(sm.constants![field])} } } }`).join(' and ')} ` +
              `(a sheet entry without "source" applies to the source named after the sheet)`
            : `"${field}" is not a field of ${sheet} (fields: ${known})`,
        });
      }
    }
  });
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

/**
 * The sheets a row of `sheet` reaches through its references (a supplier product → its supplier plant → that
 * plant's supplier company) that have `field`: where a constant the sheet itself has no field for belongs.
 */
function reachedSheetsWith(sheet: DataSheetName, field: string): DataSheetName[] {
  const out: DataSheetName[] = [];
  const seen = new Set<DataSheetName>([sheet]);
  const queue: DataSheetName[] = [sheet];
  while (queue.length) {
    const s = queue.shift()!;
    for (const [, c] of columnsOf(getSheet(s))) {
      const target = c.refersTo && c.refersTo !== 'by_component_type' ? DEFINED_IN[c.refersTo]?.sheet : undefined;
      if (!target || seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
      if (columnsOf(getSheet(target)).some(([f]) => f === field)) out.push(target);
    }
  }
  return out;
}

export type ParseMappingResult = { ok: true; mapping: ColumnMapping } | { ok: false; errors: string[] };

/** `sheets.supplier-products.colums: unknown key` — one line per problem, with the path in the document. */
export function parseColumnMapping(doc: unknown): ParseMappingResult {
  const r = columnMappingSchema.safeParse(doc);
  if (r.success) return { ok: true, mapping: r.data };
  const errors: string[] = [];
  for (const i of r.error.issues) {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys')
      for (const k of i.keys) errors.push(`${path ? `${path}.` : ''}${k}: unknown key (a typo?)`);
    else errors.push(`${path || '(document)'}: ${i.message}`);
  }
  return { ok: false, errors };
}

/** Parse a mapping from JSON text; a syntax error is one line. */
export function parseColumnMappingText(text: string): ParseMappingResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, errors: [`not valid JSON (${e instanceof Error ? e.message : String(e)})`] };
  }
  return parseColumnMapping(doc);
}
