/**
 * Template writer: the combined onboarding workbook and one workbook per sheet, optionally pre-filled with
 * the mapping sheets (`plants`, `materials`) and the `products` reference sheet from plain arrays the caller
 * passes in (no API call here). Output is deterministic: fixed document dates and zip entry times, so
 * regenerating gives the same bytes.
 */
import { writeFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { DATA_SHEETS, PRODUCTS_REFERENCE_SHEET, type ProductsReferenceRow, type SheetRows } from './registry.js';
import type { SheetDef } from './sheet-def.js';
import type { TemplateLang } from './template-words.js';
import type { DataSheetName } from './types.js';
import {
  addFormatSheet,
  addInstructionsSheet,
  addListsSheet,
  type SheetContent,
  type WritableRow,
} from './xlsx-layout.js';
import { nextTurn } from '../throttle.js';
import { normaliseZipTimes } from './zip-times.js';
import { writeAtomic } from '../fs/atomic.js';
import { collectBuffer } from '../fs/buffer.js';

/** The date written into templates (document properties and zip entries). */
export const TEMPLATE_DATE = new Date(Date.UTC(2025, 0, 1, 0, 0, 0));
export const COMBINED_TEMPLATE_FILE = 'supply-loader-onboarding.xlsx';

export interface TemplateReferenceData {
  plants?: readonly SheetRows['plants'][];
  materials?: readonly SheetRows['materials'][];
  products?: readonly ProductsReferenceRow[];
}

export interface TemplateOptions {
  /** Sheets to include, in onboarding order; default: all data sheets (the combined workbook). */
  sheets?: readonly DataSheetName[];
  /** Pre-fill: mapping sheets rows and the products reference sheet (added when given). */
  referenceData?: TemplateReferenceData;
  /** The language of the Instructions sheet, the header notes and the cell checks' messages (default en). */
  lang?: TemplateLang;
}

/** Build a template in memory. */
export async function buildTemplate(options: TemplateOptions = {}): Promise<Buffer> {
  const wanted = new Set<string>(options.sheets ?? DATA_SHEETS.map((d) => d.name));
  const ref = options.referenceData ?? {};
  const prefill: Partial<Record<DataSheetName, readonly WritableRow[]>> = {
    plants: ref.plants as readonly WritableRow[] | undefined,
    materials: ref.materials as readonly WritableRow[] | undefined,
  };
  // Pre-filled mapping sheets are added even to a per-sheet template: they are what the rows refer to.
  const defs = DATA_SHEETS.filter((d) => wanted.has(d.name) || (prefill[d.name as DataSheetName]?.length ?? 0) > 0);
  const contents: SheetContent[] = defs.map((def) => ({ def, rows: prefill[def.name as DataSheetName] ?? [] }));
  if (ref.products) contents.push({ def: PRODUCTS_REFERENCE_SHEET, rows: ref.products as readonly WritableRow[] });
  return writeFormatWorkbook(contents, { instructionsFor: defs, date: TEMPLATE_DATE, lang: options.lang });
}

/** Write a template to a file; returns the bytes written. */
export async function writeTemplate(path: string, options: TemplateOptions = {}): Promise<Buffer> {
  const buf = await buildTemplate(options);
  await writeAtomic(path, (tmp) => writeFile(tmp, buf));
  return buf;
}

/** File name of the template for one sheet (or the combined one). */
export function templateFileName(sheet?: DataSheetName): string {
  return sheet ? `${sheet}.xlsx` : COMBINED_TEMPLATE_FILE;
}

/** Every template `npm run templates` writes: file name → options. */
export function allTemplates(): { file: string; options: TemplateOptions }[] {
  return [
    { file: templateFileName(), options: {} },
    ...DATA_SHEETS.map((d) => ({
      file: templateFileName(d.name as DataSheetName),
      options: { sheets: [d.name as DataSheetName] },
    })),
  ];
}

/**
 * Instructions + format sheets + hidden lists, into a buffer. With `date` the output is reproducible (fixed
 * document dates and zip entry times); without, the current time is used.
 */
export async function writeFormatWorkbook(
  contents: readonly SheetContent[],
  opts: FormatStreamOptions = {},
): Promise<Buffer> {
  const { buffer } = await collectBuffer((sink) => writeFormatStream(contents, sink, opts));
  return opts.date ? normaliseZipTimes(buffer, opts.date) : buffer;
}

export interface FormatStreamOptions {
  /** An Instructions sheet first, describing these sheets. */
  instructionsFor?: readonly SheetDef[];
  /** Fixed document dates (reproducible output); the current time without. */
  date?: Date;
  /** false: strings inline, so no table of every distinct string is kept while writing (default true). */
  sharedStrings?: boolean;
  /** The language of the Instructions sheet, the header notes and the cell checks' messages (default en). */
  lang?: TemplateLang;
}

/** Same, streamed into `sink` (memory stays bounded for large exports). */
export async function writeFormatStream(
  contents: readonly SheetContent[],
  sink: Writable,
  opts: FormatStreamOptions = {},
): Promise<void> {
  const date = opts.date ?? new Date();
  // A turn of the event loop before the writer is made (the first one loads exceljs's writer and the zip
  // library), before each sheet and before the commit, and every few rows within the sheets (the rows
  // themselves, the lists): a workbook written beside a job lets the job's answers in meanwhile.
  await nextTurn();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useSharedStrings: opts.sharedStrings ?? true,
    useStyles: true,
  });
  wb.creator = 'Supply Loader';
  wb.lastModifiedBy = 'Supply Loader';
  wb.created = date;
  wb.modified = date;
  const lang = opts.lang ?? 'en';
  await nextTurn();
  if (opts.instructionsFor) await addInstructionsSheet(wb, opts.instructionsFor, lang);
  for (const c of contents) {
    await nextTurn();
    await addFormatSheet(wb, c, lang);
  }
  await nextTurn();
  await addListsSheet(wb);
  await nextTurn();
  await wb.commit();
}
