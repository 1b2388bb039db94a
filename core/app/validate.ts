/**
 * The validate operation, once for the CLI (`validate`, and the first step of `plan`/`import`) and the app
 * (`import.validate`): the sources (a workbook, CSV files, mixed) read as one workbook — through a column mapping
 * when there is one — and checked on their own (row schemas, spec rules, cross-sheet checks). Nothing is sent.
 * When connected, the codes pass (jobs/code-check.ts) adds every code neither the workbook nor the service
 * knows to the same report, at its cell: `withCodes` (from a plan's answer) and `checkSourceCodes` (reads only).
 */
import type { ApiClient } from '../api/index.js';
import { checkCodes, withCodeIssues } from '../jobs/code-check.js';
import type { CodeMappings } from '../jobs/resolve.js';
import type { ColumnMapping } from '../workbook/column-mapping/schema.js';
import type { ReadOptions } from '../workbook/reader.js';
import { readSources } from '../workbook/sources/index.js';
import type { Issue, ParsedWorkbook, ValidationReport } from '../workbook/types.js';
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
  } = {},
): Promise<CheckedSources> {
  const parsed = await readSources(paths, {
    ...(o.mapping && { mapping: o.mapping }),
    ...(o.signal && { signal: o.signal }),
    ...(o.onRead && { onProgress: o.onRead }),
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

/** The check's report with the unknown codes a plan found (its `unknownCodes`) among its errors. */
export function withCodes(w: CheckedSources, unknownCodes: readonly Issue[] | undefined): ValidationReport {
  return withCodeIssues(w.parsed, w.report, unknownCodes ?? []);
}

/**
 * The codes pass against the service without a plan (reads only): the report with every unknown code among its
 * errors, each at its cell with its hints.
 */
export async function checkSourceCodes(
  w: CheckedSources,
  s: { client: ApiClient; mappings?: CodeMappings; signal?: AbortSignal },
): Promise<{ report: ValidationReport; codes: CodesChecked }> {
  if (!w.parsed.readable) return { report: w.report, codes: { checked: false, reason: 'the workbook cannot be read' } };
  const unknown = await checkCodes(w.parsed, w.report, s.client, s.mappings, s.signal);
  return { report: withCodeIssues(w.parsed, w.report, unknown), codes: { checked: true, unknown: unknown.length } };
}
