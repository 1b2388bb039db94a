/**
 * The validate operation, once for the CLI (`validate`, and the first step of `plan`/`import`) and the app
 * (`import.validate`): the sources (a workbook, CSV files, mixed) read as one workbook — through a column mapping
 * when there is one — and checked on their own (row schemas, spec rules, cross-sheet checks). Nothing is sent.
 * When connected, the codes pass adds every code neither the workbook nor the service knows to the same report,
 * at its cell (app/codes.ts); offline, the check says that codes were not checked.
 */
import type { ColumnMapping } from '../workbook/column-mapping/schema.js';
import type { ReadOptions, WorkbookInspections } from '../workbook/reader.js';
import { readSources } from '../workbook/sources/index.js';
import type { ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import { validateWorkbook, type ValidateOptions } from '../workbook/validate.js';

export interface CheckedSources {
  parsed: ParsedWorkbook;
  report: ValidationReport;
}

export async function readAndValidate(
  paths: readonly string[],
  o: {
    mapping?: ColumnMapping;
    /** the name the user knows (an uploaded copy is stored under a random name): in messages, plan, job */
    fileName?: string;
    signal?: AbortSignal;
    onRead?: ReadOptions['onProgress'];
    onValidate?: ValidateOptions['onProgress'];
    /** inspections of the files made already (their sheet lists read ahead): used when a file is unchanged */
    inspections?: WorkbookInspections;
  } = {},
): Promise<CheckedSources> {
  const parsed = await readSources(paths, {
    ...(o.mapping && { mapping: o.mapping }),
    ...(o.signal && { signal: o.signal }),
    ...(o.onRead && { onProgress: o.onRead }),
    ...(o.inspections && { inspections: o.inspections }),
  });
  if (o.fileName !== undefined) parsed.file = o.fileName;
  const report = await validateWorkbook(parsed, {
    ...(o.signal && { signal: o.signal }),
    ...(o.onValidate && { onProgress: o.onValidate }),
  });
  return { parsed, report };
}

/** Whether the workbook's codes were checked against the service (offline: no; the reason in words). */
export type CodesChecked = { checked: true; unknown: number } | { checked: false; reason: string };

/** The words of an offline check: codes were not checked. */
export const CODES_NOT_CHECKED =
  'codes (plants, materials, references to the service) were not checked: that needs a connection ("plan" checks them)';
