/** `supply-loader resume JOB_ID`: continue an interrupted, aborted or paused import job — no duplicate, no lost row. */
import { findJob } from '../../app/jobs.js';
import { loadJob, resumeJob } from '../../jobs/run.js';
import { expectPositionals, intOption } from '../args.js';
import { connectContext, runContext } from '../context.js';
import { jobRefusalAsUsage } from '../errors.js';
import { clientCap, exitCodeOf, jobProgress } from '../importing.js';
import { writeResultFiles } from '../results.js';
import { EXIT, type CliCommand } from '../types.js';
import { formatResult } from '../views.js';
import { IMPORT_OPTIONS, outputPaths } from './import.js';

export const resumeCommand: CliCommand = {
  name: 'resume',
  summary: 'Continue an import job that stopped (crash, kill, Ctrl+C, key refused, daily limit)',
  usage: `supply-loader resume JOB_ID [--report OUT.xlsx] [--failed OUT.xlsx] [--concurrency N]
  Rows already done are not sent again; a write whose answer was lost is checked on the service first.
  The key may differ from the one the job started with (e.g. after a revoked key), but must belong to the
  same manufacturer. "supply-loader jobs" lists the jobs.`,
  options: { ...IMPORT_OPTIONS },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [jobId] = expectPositionals(positionals, ['JOB_ID'], 'resume');
    const rc = runContext(ctx);
    // A completed job is not refused: resuming it again answers the same (scripts may rerun it).
    await findJob(rc.jobsDir, jobId);
    const outs = outputPaths(values, rc, 'resume');
    const concurrency = intOption(values, 'concurrency', 1, 256, 'resume');
    await connectContext(ctx, clientCap(concurrency));
    const progress = jobProgress(rc);
    let result;
    try {
      result = await resumeJob(jobId, {
        client: ctx.client,
        jobsDir: rc.jobsDir,
        signal: ctx.signal,
        onProgress: progress.onProgress,
        ...(concurrency ? { concurrency } : {}),
      });
    } catch (e) {
      jobRefusalAsUsage(e, 'resume');
    } finally {
      progress.done();
    }
    const { plan, meta } = await loadJob(rc.jobsDir, jobId);
    const files = await writeResultFiles(rc, meta.inputPath, plan, result, outs);
    const code = exitCodeOf(result);
    if (ctx.json) {
      rc.printJson({ ok: code === EXIT.ok, exit_code: code, job_id: jobId, result, files });
    } else {
      ctx.stdout(`${formatResult(plan, result).join('\n')}\n`);
      if (files.report) ctx.stdout(`results workbook: ${files.report}\n`);
      if (files.failed) ctx.stdout(`failed rows workbook: ${files.failed}\n`);
      if (code === EXIT.aborted) ctx.stdout(`continue with: supply-loader resume ${jobId}\n`);
    }
    return code;
  },
};
