/**
 * `supply-loader lca impact JOB_ID [-o FILE] [--no-recompute] [--json]` and the impact step of `import
 * --lca-impact`: the affected instances of a job recomputed (unless --no-recompute), the impact report kept in
 * the job folder and written as a workbook (`impact`, `impact-sources`; docs/lca-export.md, "Import impact").
 * Exit codes as `lca`: 0 every affected instance compared, 1 an instance without after-values or a year
 * blocked after the job, 2 usage (no such job; nothing sent), 3 aborted (key refused, daily limit, cancelled).
 */
import path from 'node:path';
import {
  defaultImpactFile,
  impactVerdict,
  impactableJob,
  lcaImpact,
  lcaImpactAffected,
  readImpactReport,
  writeLcaImpactWorkbook,
  type ImpactReport,
  type ImpactWorkbookStats,
  type LcaImpactDryRun,
} from '../../app/lca-impact.js';
import { expectPositionals, flag, str } from '../shared/args.js';
import { RunContext } from '../shared/context.js';
import type { AffectedSet, ImpactEstimates } from '../../app/lca-impact.js';
import { CliUsageError } from '../shared/errors.js';
import { EXIT, type CliContext, type ExitCode } from '../shared/types.js';

const NAME = 'lca impact';

export const IMPACT_USAGE = `supply-loader lca impact JOB_ID [-o FILE.xlsx] [--no-recompute] [--json]
  the LCA impact of a finished import job: its affected product instances recomputed (--no-recompute: their stored
  results read), compared with the results kept before the job (import --lca-impact), written to FILE.xlsx
  (default: <source name>.impact.xlsx beside the job's source, else JOB_ID.impact.xlsx here)`;

/** The exit code of an impact run. */
export function impactExitCode(report: ImpactReport): ExitCode {
  const v = impactVerdict(report);
  return v === 'aborted' ? EXIT.aborted : v === 'partial' ? EXIT.partial : EXIT.ok;
}

/**
 * The dry run's impact in words: affected instances per plant, the recomputes to come, the estimates. `planOnly`
 * (`plan --lca-impact`): nothing is kept and nothing recomputed, so the line on the results says what was read
 * and what an import would do.
 */
export function dryRunLines(d: LcaImpactDryRun, o: { planOnly?: boolean } = {}): string[] {
  const n = d.affected.instances.length;
  const lines = [
    `LCA impact: ${n} product instance${n === 1 ? '' : 's'} affected${d.affected.byPlant.length ? ` (${d.affected.byPlant.map((p) => `${p.plant_code ?? p.plant_id ?? 'new'}: ${p.count}`).join(', ')})` : ''}.`,
  ];
  for (const i of d.affected.instances.slice(0, 20))
    lines.push(
      `  ${i.external_id ?? i.id ?? i.entryKey}: rows ${i.rows.slice(0, 8).join(', ')}${i.rows.length > 8 ? ' …' : ''}`,
    );
  if (n > 20) lines.push(`  … and ${n - 20} more`);
  for (const u of d.affected.unchecked.slice(0, 5)) lines.push(`  Not checked: ${u}`);
  const recomputes = `${d.recomputes} recompute${d.recomputes === 1 ? '' : 's'} (one lca-update each, then polling; the service's daily request limit stops them when reached)`;
  lines.push(
    o.planOnly
      ? `  Current results read: ${d.before.completed} of ${d.before.instances} (a plan keeps and recomputes nothing). An import with --lca-impact keeps them and after its job starts ${recomputes}.`
      : `  Results kept before the job: ${d.before.completed} of ${d.before.instances}. After the job: ${recomputes}.`,
  );
  const gwp = d.estimates.estimates.filter((e) => e.indicator === 'GWP-total');
  if (gwp.length) {
    lines.push(`  Estimates (not results) of GWP-total per declared unit:`);
    for (const e of gwp.slice(0, 10))
      lines.push(
        `    ${e.external_id ?? e.instance_id} ${e.year} ${e.module}: ${fmt(e.current)} ${signed(e.estimated_change)} (estimate)`,
      );
  }
  for (const x of d.estimates.not_estimated.slice(0, 10))
    lines.push(`  Not estimated: ${x.external_id ?? x.instance_id ?? ''}: ${x.why}`);
  return lines;
}

const fmt = (v: number | null) => (v === null ? '—' : Number(v.toPrecision(6)).toString());
const signed = (v: number) => `${v >= 0 ? '+' : ''}${fmt(v)}`;

/** The report in words: per instance its GWP-total changes, the attribution's biggest lines. */
export function reportLines(report: ImpactReport, file: string | null, stats: ImpactWorkbookStats | null): string[] {
  const lines = [
    `LCA impact of job ${report.job_id}: ${report.instances.length} product instance${report.instances.length === 1 ? '' : 's'} ${report.recomputed ? 'recomputed' : 'read'} and compared.`,
  ];
  for (const i of report.instances.slice(0, 20)) {
    const gwp = report.rows.filter((r) => r.instance_id === i.instance_id && r.indicator === 'GWP-total');
    const moved = gwp.filter((r) => r.change !== null && r.change !== 0);
    lines.push(`  ${i.external_id ?? i.instance_id}${i.problem ? ` (${i.problem})` : ''}:`);
    for (const r of moved.slice(0, 6))
      lines.push(
        `    ${r.year} ${r.module} GWP-total: ${fmt(r.before)} → ${fmt(r.after)} (${signed(r.change!)}${r.change_pct !== null ? `, ${signed(r.change_pct)} %` : ''})`,
      );
    for (const r of gwp.filter((x) => x.blocked_before !== null || x.blocked_after !== null).slice(0, 4))
      lines.push(
        `    ${r.year} ${r.module}: ${r.blocked_before ? `blocked before (${r.blocked_before})` : ''}${r.blocked_before && r.blocked_after ? ', ' : ''}${r.blocked_after ? `blocked after (${r.blocked_after})` : ''}`,
      );
  }
  if (report.instances.length > 20) lines.push(`  … and ${report.instances.length - 20} more`);
  for (const n of report.notes.slice(0, 10)) lines.push(`Note: ${n}`);
  if (file && stats)
    lines.push(`Wrote ${file} (impact ${stats.rows.impact} rows, impact-sources ${stats.rows.sources}).`);
  return lines;
}

/** The impact step after an import's job (or its resume): the exit code, the workbook written, the report. */
export interface ImpactStep {
  code: ExitCode;
  file: string;
  report: ImpactReport;
}

type Say = { stdout: (s: string) => void; stderr: (s: string) => void };

/**
 * After the job of `import --lca-impact` (or its resume): the affected instances recomputed, the impact report
 * kept in the job folder and written to `file`. A report an earlier run kept complete (recomputed, not stopped
 * early) is answered as it stands, without a request: a resume run again recomputes nothing.
 */
export async function impactAfterJob(rc: RunContext, jobId: string, file: string, say?: Say): Promise<ImpactStep> {
  const kept = await readImpactReport(rc.jobsDir, jobId);
  const report =
    kept && kept.recomputed && !kept.aborted
      ? kept
      : await lcaImpact(rc.client, rc.jobsDir, jobId, { signal: rc.signal });
  const stats = await writeLcaImpactWorkbook(report, file);
  say?.stdout(`${reportLines(report, file, stats).join('\n')}\n`);
  if (report.aborted) say?.stderr(`supply-loader: ${report.aborted.message}\n`);
  return { code: impactExitCode(report), file, report };
}

/**
 * The `lca_impact` part of `import --json` and `resume --json`: the dry run's affected set and estimates (null
 * when the dry run did not keep them), and the impact step's workbook, exit code and report (null when the job
 * stopped before it).
 */
export function impactJson(
  dry: { affected: AffectedSet | null; estimates: ImpactEstimates | null },
  step: ImpactStep | null,
): Record<string, unknown> {
  return {
    affected: dry.affected,
    estimates: dry.estimates,
    file: step?.file ?? null,
    exit_code: step?.code ?? null,
    report: step?.report ?? null,
  };
}

/** `lca impact JOB_ID …` */
export async function lcaImpactAction(
  values: Record<string, unknown>,
  positionals: string[],
  ctx: CliContext,
): Promise<ExitCode> {
  expectPositionals(positionals, ['JOB_ID'], NAME);
  const [jobId] = positionals;
  const rc = ctx instanceof RunContext ? ctx : null;
  const cwd = rc?.cwd ?? process.cwd();
  const jobsDir = rc?.jobsDir;
  if (!jobsDir) throw new CliUsageError('no jobs directory', NAME);
  const outArg = str(values, 'output');
  if (outArg && !/\.xlsx$/i.test(outArg))
    throw new CliUsageError(`the output file must end in .xlsx (got "${outArg}")`, NAME);
  await impactableJob(jobsDir, jobId);
  const out = outArg ? path.resolve(cwd, outArg) : await defaultImpactFile(jobsDir, jobId, cwd);
  if (rc) await rc.connect();
  const recompute = !flag(values, 'no-recompute');
  const affected = await lcaImpactAffected(ctx.client, jobsDir, jobId, { signal: ctx.signal });
  const n = affected.instances.length;
  if (!ctx.json)
    ctx.stderr(
      recompute
        ? `Recomputing ${n} affected product instance${n === 1 ? '' : 's'} of job ${jobId}: ${n} lca-update request${n === 1 ? '' : 's'}, then polling (the service's daily request limit stops the run when reached; what was done is kept).\n`
        : `Reading the stored LCA results of ${n} affected product instance${n === 1 ? '' : 's'} of job ${jobId}.\n`,
    );
  const bar = ctx.progress(n, recompute ? 'LCA recompute' : 'LCA results');
  let report: ImpactReport;
  try {
    report = await lcaImpact(ctx.client, jobsDir, jobId, {
      recompute,
      signal: ctx.signal,
      onEvent: (e) => {
        if (e.state === 'done' || e.state === 'failed') bar.tick(1, `${e.externalId ?? e.instanceId} ${e.state}`);
      },
    });
  } finally {
    bar.done();
  }
  const stats = await writeLcaImpactWorkbook(report, out);
  const code = impactExitCode(report);
  if (ctx.json) ctx.stdout(`${JSON.stringify({ command: NAME, output: out, exit_code: code, report }, null, 2)}\n`);
  else ctx.stdout(`${reportLines(report, out, stats).join('\n')}\n`);
  if (report.aborted) ctx.stderr(`supply-loader: ${report.aborted.message}\n`);
  return code;
}
