/**
 * The codes pass of the check (jobs/code-check.ts), for the CLI (`plan`, `import`) and the app's Check step: when
 * connected, every code of the sources neither the workbook nor the service knows is an error of the same report,
 * at its cell, with the known codes it may be a typo of; an error it causes elsewhere says so.
 */
import type { ApiClient } from '../api/index.js';
import { checkCodes, withCodeIssues } from '../jobs/code-check.js';
import type { CodeMappings } from '../jobs/resolve.js';
import type { Issue, ValidationReport } from '../workbook/types.js';
import type { CheckedSources, CodesChecked } from './validate.js';

/** The check's report with the unknown codes a plan found (its `unknownCodes`) among its errors. */
export function withCodes(w: CheckedSources, unknownCodes: readonly Issue[] | undefined): ValidationReport {
  return withCodeIssues(w.parsed, w.report, unknownCodes ?? []);
}

/**
 * The codes pass against the service without a plan (reads only): the report with every unknown code among its
 * errors, each at its cell with its hints. (With a plan, its `unknownCodes` are the same: withCodes.)
 */
export async function checkSourceCodes(
  w: CheckedSources,
  s: { client: ApiClient; mappings?: CodeMappings; signal?: AbortSignal },
): Promise<{ report: ValidationReport; codes: CodesChecked }> {
  if (!w.parsed.readable) return { report: w.report, codes: { checked: false, reason: 'the workbook cannot be read' } };
  const unknown = await checkCodes(w.parsed, w.report, s.client, s.mappings, s.signal);
  return { report: withCodeIssues(w.parsed, w.report, unknown), codes: { checked: true, unknown: unknown.length } };
}
