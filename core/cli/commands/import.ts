/**
 * `supply-loader import FILE [--report OUT.xlsx] [--failed OUT.xlsx] [--concurrency N] [--create-only]`:
 * validate, plan, then run the plan as a journaled job (resumable after a crash, a kill or a revoked key).
 */
import { refusedForBlocked } from '../../app/import.js';
import { discardJob, plannedEntries, resultWithEntries, runImportJob } from '../../app/import-job.js';
import { csvResultSources, liveResultFiles, writeImportResults, type ResultFiles } from '../../app/import-results.js';
import { flag, intOption, str } from '../shared/args.js';
import { MAPPING_OPTION, mappingOption } from '../shared/column-mapping.js';
import { connectContext, runContext, type RunContext } from '../shared/context.js';
import { savedMappingsFor } from '../shared/code-mappings.js';
import { checkSourceCodes } from '../../app/codes.js';
import { CODES_NOT_CHECKED, type CodesChecked } from '../../app/validate.js';
import { CliUsageError } from '../shared/errors.js';
import { checkDistinct, checkOutputPath, checkSourceFiles } from '../shared/files.js';
import {
  clientCap,
  exitCodeOf,
  jobProgress,
  MIRROR_OPTIONS,
  MIRROR_USAGE,
  mirrorOptions,
  planIntoJob,
} from '../shared/importing.js';
import type { ColumnMapping } from '../../workbook/column-mapping/schema.js';
import type { DataSheetName } from '../../workbook/types.js';
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, type CliCommand, type ExitCode } from '../shared/types.js';
import { entryLines, formatPlan, formatResult } from '../output/views.js';
import {
  issueSummary,
  loadForPlan,
  printIssues,
  sheetLines,
  workbookFailed,
  type LoadedWorkbook,
} from '../shared/workbook.js';
import { isTextSource } from '../../workbook/sources/index.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import type { JobResult, JobResultSummary } from '../../app/import-job.js';
import { mark } from '../output/timings.js';
import { keepImpactAsked, prepareLcaImpact } from '../../app/lca-impact.js';
import { dryRunLines, impactAfterJob, impactJson } from './lca-impact.js';

export const IMPORT_OPTIONS = {
  report: { type: 'string' },
  failed: { type: 'string' },
  concurrency: { type: 'string' },
} as const;

export function outputPaths(
  values: Record<string, unknown>,
  rc: RunContext,
  command: string,
  input?: string,
): { report?: string; failed?: string } {
  const out: { report?: string; failed?: string } = {};
  const report = str(values, 'report');
  const failed = str(values, 'failed');
  if (report) out.report = checkOutputPath(report, rc.cwd, command, '--report');
  if (failed) out.failed = checkOutputPath(failed, rc.cwd, command, '--failed');
  if (input && out.report) checkDistinct(input, out.report, command, '--report');
  if (input && out.failed) checkDistinct(input, out.failed, command, '--failed');
  if (out.report && out.failed && out.report === out.failed)
    throw new CliUsageError('--report and --failed must be different files', command);
  return out;
}

/** --report / --failed as existing folders (CSV sources). */
function outputDirs(
  values: Record<string, unknown>,
  rc: RunContext,
  command: string,
): { report?: string; failed?: string } {
  const out: { report?: string; failed?: string } = {};
  for (const name of ['report', 'failed'] as const) {
    const v = str(values, name);
    if (!v) continue;
    const p = path.resolve(rc.cwd, v);
    if (!fs.existsSync(p) || !fs.statSync(p).isDirectory())
      throw new CliUsageError(
        `with CSV sources --${name} names a folder (for <source name>.${name === 'report' ? 'results' : 'failed'}.csv); ${p} is not one`,
        command,
      );
    out[name] = p;
  }
  return out;
}

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import a workbook: validate, plan, then create/update in dependency order as a resumable job',
  usage: `supply-loader import SOURCE... [--mapping FILE.json|NAME] [--report OUT.xlsx] [--failed OUT.xlsx] [--concurrency N] [--create-only] [--skip-blocked] [--mirror SHEET[,SHEET]] [--max-deletes N]
  SOURCE: a workbook (.xlsx) or CSV files, mixed (see "validate"); --mapping: a column mapping.
  With CSV sources --report DIR and --failed DIR name folders: <source name>.results.csv (the source's rows and
  columns + _result, _id, _err_code, _message, in its encoding and delimiter) and <source name>.failed.csv; a
  workbook among the sources gets <name>.results.xlsx / <name>.failed.xlsx there.
  --report OUT.xlsx   write a results workbook: a copy of the input with _result, _id, _err_code, _message
                      per row and a Report sheet (the input file is never changed)
  --failed OUT.xlsx   write the rows that did not succeed, in the template format, ready to fix and re-import
  --concurrency N     at most N writes in flight (default 16; the client adapts below it); the planning
                      reads still go up to 16 side by side
  --create-only       create what is missing, never update what exists
  --skip-blocked      import the rest when some rows are blocked (by default nothing is sent then)
  --lca-impact        list the product instances the import affects and keep their LCA results before it
                      (with estimates of the change); after the job recompute them and write the impact
                      report to <source name>.impact.xlsx (see "lca impact"); a resume of the job keeps it
${MIRROR_USAGE}
  A workbook with errors is refused before anything is sent (exit 2). The job is journaled under --jobs-dir;
  if it stops (Ctrl+C, crash, key refused, daily limit) continue it with "supply-loader resume JOB_ID".`,
  options: {
    ...IMPORT_OPTIONS,
    'create-only': { type: 'boolean' },
    'skip-blocked': { type: 'boolean' },
    'lca-impact': { type: 'boolean' },
    ...MIRROR_OPTIONS,
    ...MAPPING_OPTION,
  },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const rc = runContext(ctx);
    const sources = checkSourceFiles(positionals, rc.cwd, 'import');
    const mapping = mappingOption(rc, values, 'import');
    // With CSV sources --report / --failed name folders: <source name>.results.csv / .failed.csv per CSV file.
    const csvMode = sources.some((s) => isTextSource(s));
    const outs = csvMode ? outputDirs(values, rc, 'import') : outputPaths(values, rc, 'import', sources[0]);
    const concurrency = intOption(values, 'concurrency', 1, 256, 'import');
    const r = await importFile(rc, sources, {
      createOnly: flag(values, 'create-only'),
      skipBlocked: flag(values, 'skip-blocked'),
      lcaImpact: flag(values, 'lca-impact'),
      ...mirrorOptions(values, 'import'),
      ...(concurrency ? { concurrency } : {}),
      ...(mapping ? { mapping } : {}),
      outs,
    });
    if (ctx.json) rc.printJson(r.document);
    return r.code;
  },
};

/**
 * The codes of a workbook refused for its errors, checked on the connection when one can be made (reads only:
 * app/codes.ts); without one, or when the service cannot be read, the report as it is and why.
 */
async function codesOfRefused(
  rc: RunContext,
  w: LoadedWorkbook,
): Promise<{ report: LoadedWorkbook['report']; codes: CodesChecked }> {
  if (!w.parsed.readable) return { report: w.report, codes: { checked: false, reason: 'the workbook cannot be read' } };
  try {
    await connectContext(rc, { checkKey: false });
    const mappings = savedMappingsFor(rc);
    return await checkSourceCodes(w, { client: rc.client, ...(mappings && { mappings }), signal: rc.signal });
  } catch (e) {
    if (rc.signal.aborted) throw e;
    const why = e instanceof Error ? e.message : String(e);
    return { report: w.report, codes: { checked: false, reason: `${CODES_NOT_CHECKED.split(':')[0]}: ${why}` } };
  }
}

export interface ImportFileOptions {
  createOnly: boolean;
  skipBlocked: boolean;
  concurrency?: number;
  /** A column mapping (file or saved name, already read). */
  mapping?: ColumnMapping;
  /** Sheets to mirror (entities of their type not in the sheet are deleted) and the cap of deletes. */
  mirror?: DataSheetName[];
  maxDeletes?: number;
  /** Results and failed-rows outputs to write (files for a workbook, folders for CSV sources). */
  outs: ResultFiles;
  /** Where the words go (default: the context's stdout/stderr, none with --json). */
  out?: { stdout: (s: string) => void; stderr: (s: string) => void };
  /** Give the job this id (the watch folder records it before the job starts). */
  jobId?: string;
  /**
   * Keep the affected instances' LCA results before the job (with estimates), recompute them after it and write
   * the impact report (`<source name>.impact.xlsx` beside the first source).
   */
  lcaImpact?: boolean;
  /** Where the impact workbook goes (default `<source name>.impact.xlsx` beside the first source). */
  impactFile?: string;
}

export interface ImportFileResult {
  code: ExitCode;
  /** The job, when one was started (not for a workbook with errors or a blocked plan). */
  jobId?: string;
  result?: JobResultSummary | JobResult;
  files: ResultFiles;
  /** CSV results written (CSV sources). */
  csvFiles: string[];
  /** Results and failed-rows workbooks of the workbooks among mixed sources (written into the folders). */
  workbookFiles: string[];
  /** The impact workbook written (`lcaImpact`, once the job has ended). */
  impactFile?: string;
  /** What `import --json` prints. */
  document: Record<string, unknown>;
}

/**
 * Sources through validate → plan → job → results: the code path of `supply-loader import`, shared with
 * `supply-loader watch`. Connects on demand (nothing is sent for a workbook with errors or a blocked plan).
 */
export async function importFile(rc: RunContext, sources: string[], o: ImportFileOptions): Promise<ImportFileResult> {
  const say = o.out ?? (rc.json ? undefined : { stdout: rc.stdout, stderr: rc.stderr });
  const { concurrency, mapping } = o;
  const input = sources[0];
  const csvMode = sources.some((s) => isTextSource(s));

  // 1. The workbook, with the plan's service reads beside the read (as `plan`): errors → nothing is written (its
  // codes are read, when a connection can be made). Dropped once planned: the job runs from the plan, and the
  // results workbooks re-read the sources.
  mark('import-start');
  let w: LoadedWorkbook | null = await loadForPlan(sources, rc, {
    ...(mapping && { mapping }),
    ...clientCap(concurrency),
  });
  mark('read-validated');
  if (workbookFailed(w)) {
    w.walks?.cancel();
    // Refused, but with every error in one pass: the codes too, when a connection can be made (reads only).
    const { report, codes } = await codesOfRefused(rc, w);
    const checked = { ...w, report };
    if (say) {
      printIssues(rc, checked, say.stderr);
      for (const line of sheetLines(checked)) say.stderr(`${line}\n`);
      if (!codes.checked) say.stderr(`Not checked: ${codes.reason}.\n`);
      say.stderr(`${issueSummary(checked)}\nNothing was sent: fix the errors above and import again.\n`);
    }
    return {
      code: EXIT.usage,
      files: {},
      csvFiles: [],
      workbookFiles: [],
      document: {
        ok: false,
        exit_code: EXIT.usage,
        stage: 'validation',
        file: w.parsed.file,
        errors: report.errors,
        issues: report.issues,
        codes_checked: codes.checked,
      },
    };
  }

  // 2. The plan (reads only), its entries written into the new job's folder as they are decided (a 200,000-row
  // plan is not held in memory); the folder is removed again when nothing is sent.
  const planned = await planIntoJob(
    rc,
    w,
    {
      createOnly: o.createOnly,
      ...(o.mirror ? { mirror: o.mirror } : {}),
      ...(o.maxDeletes !== undefined ? { maxDeletes: o.maxDeletes } : {}),
      ...clientCap(concurrency),
      ...(o.jobId !== undefined ? { jobId: o.jobId } : {}),
    },
    rc.jobsDir,
  );
  const { plan, jobId } = planned;
  mark('planned');
  // CSV results are written from the sources' sheets (their layout and headers); the rest is dropped.
  const csvSheets = csvMode ? csvResultSources(w.parsed, mapping, sources) : undefined;
  const sheetSummary = sheetLines(w);
  w = null;
  const blocked = refusedForBlocked(plan, o.skipBlocked);
  if (blocked !== null) {
    const entries = [...plannedEntries(planned)];
    await discardJob(rc.jobsDir, jobId);
    if (say) {
      for (const e of entries.filter((x) => x.action === 'blocked' || x.action === 'conflict').slice(0, 200))
        say.stderr(`${entryLines(e, plan).join('\n')}\n`);
      say.stderr(
        `${blocked} entr${blocked === 1 ? 'y is' : 'ies are'} blocked (above). Nothing was sent: fix them, or import the rest with --skip-blocked.\n`,
      );
    }
    return {
      code: EXIT.usage,
      files: {},
      csvFiles: [],
      workbookFiles: [],
      document: { ok: false, exit_code: EXIT.usage, stage: 'plan', blocked, plan: { ...plan, entries } },
    };
  }
  if (say) {
    for (const line of sheetSummary) say.stdout(`${line}\n`);
    say.stdout(`${formatPlan(plan, 0).join('\n')}\n\n`);
  }
  const impactDry = o.lcaImpact ? await prepareLcaImpact(rc.client, rc.jobsDir, jobId, { signal: rc.signal }) : null;
  // Kept in the job folder: a resume of the job recomputes and reports as this import would have.
  if (impactDry) await keepImpactAsked(rc.jobsDir, jobId);
  if (impactDry && say) say.stdout(`${dryRunLines(impactDry).join('\n')}\n\n`);

  // 3. The job, run from the folder (entries read back one by one; a compact index in memory).
  const progress = jobProgress(rc);
  const warn = (line: string) => rc.stderr(`${line}\n`);
  // A small workbook's results and failed-rows workbooks are made while the job runs (app/import-results.ts).
  const live = !csvMode ? liveResultFiles(warn, input, plan, o.outs) : null;
  mark('job-start');
  let run: IndexedJobResult;
  try {
    run = await runImportJob(jobId, {
      client: rc.client,
      jobsDir: rc.jobsDir,
      signal: rc.signal,
      onProgress: progress.onProgress,
      inputPath: input,
      ...(concurrency ? { concurrency } : {}),
      onStart: (id) => {
        say?.stderr(`job ${id} (journal in ${rc.jobsDir}); if it stops, continue with: supply-loader resume ${id}\n`);
      },
      ...(live && { onIndex: live.onIndex, onWritesUnderway: live.onWritesUnderway, onSettled: live.onSettled }),
    });
  } catch (e) {
    await live?.fail(e);
    throw e;
  }
  progress.done();
  mark('job-done');
  const summary = run.result;
  const { files, csvFiles, workbookFiles } = await writeImportResults(
    warn,
    { plan, result: summary, index: run.index },
    { sources, outs: o.outs, ...(csvSheets && { csvSources: csvSheets }), live },
  );
  mark('results-written');
  let code = exitCodeOf(run);
  const impact =
    impactDry && code !== EXIT.aborted
      ? await impactAfterJob(rc, jobId, o.impactFile ?? impactFileBeside(input), say)
      : null;
  if (impact && code === EXIT.ok) code = impact.code;
  if (say) {
    say.stdout(`${(await formatResult(run)).join('\n')}\n`);
    if (files.report) say.stdout(`results workbook: ${files.report}\n`);
    if (files.failed) say.stdout(`failed rows workbook: ${files.failed}\n`);
    for (const f of [...workbookFiles, ...csvFiles])
      say.stdout(`${/\.failed\.(csv|xlsx)$/.test(f) ? 'failed rows' : 'results'}: ${f}\n`);
    if (code === EXIT.aborted) say.stdout(`continue with: supply-loader resume ${summary.jobId}\n`);
  }
  // `import --json` prints every entry's outcome; otherwise they stay in the job folder.
  const result: JobResultSummary | JobResult = rc.json ? await resultWithEntries(run) : summary;
  await run.index.close();
  mark('import-end');
  return {
    code,
    jobId: summary.jobId,
    result,
    files,
    csvFiles,
    workbookFiles,
    ...(impact && { impactFile: impact.file }),
    document: {
      ok: code === EXIT.ok,
      exit_code: code,
      job_id: summary.jobId,
      plan_summary: plan.summary,
      result,
      files: csvMode ? { csv: csvFiles, ...(workbookFiles.length && { workbooks: workbookFiles }) } : files,
      ...(impactDry && { lca_impact: impactJson(impactDry, impact) }),
    },
  };
}

/** Where the impact workbook goes unless told: `<source name>.impact.xlsx` beside the source. */
function impactFileBeside(input: string): string {
  const p = path.parse(input);
  return path.join(p.dir, `${p.name}.impact.xlsx`);
}
