/** `supply-loader resume JOB_ID`: continue an interrupted, aborted or paused import job — no duplicate, no lost row. */
import { findJob } from '../../app/jobs.js';
import { resultWithEntries, resumeImportJob } from '../../app/import-job.js';
import { writeJobResultFiles } from '../../app/import-results.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import { expectPositionals, intOption } from '../shared/args.js';
import { connectContext, runContext } from '../shared/context.js';
import { jobRefusalAsUsage } from '../shared/errors.js';
import { clientCap, exitCodeOf, jobProgress } from '../shared/importing.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { formatResult } from '../output/views.js';
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
    const meta = await findJob(rc.jobsDir, jobId);
    const outs = outputPaths(values, rc, 'resume');
    const concurrency = intOption(values, 'concurrency', 1, 256, 'resume');
    await connectContext(ctx, clientCap(concurrency));
    const progress = jobProgress(rc);
    let run: IndexedJobResult;
    try {
      // A completed job is answered as it stands (scripts may rerun a resume).
      run = await resumeImportJob(jobId, {
        client: ctx.client,
        jobsDir: rc.jobsDir,
        signal: ctx.signal,
        onProgress: progress.onProgress,
        ...(concurrency ? { concurrency } : {}),
        completed: 'answer',
      });
    } catch (e) {
      jobRefusalAsUsage(e, 'resume');
    } finally {
      progress.done();
    }
    const files = await writeJobResultFiles((line) => rc.stderr(`${line}\n`), meta.inputPath, run, outs);
    const code = exitCodeOf(run);
    if (ctx.json) {
      rc.printJson({
        ok: code === EXIT.ok,
        exit_code: code,
        job_id: jobId,
        result: await resultWithEntries(run),
        files,
      });
    } else {
      ctx.stdout(`${(await formatResult(run)).join('\n')}\n`);
      await run.index.close();
      if (files.report) ctx.stdout(`results workbook: ${files.report}\n`);
      if (files.failed) ctx.stdout(`failed rows workbook: ${files.failed}\n`);
      if (code === EXIT.aborted) ctx.stdout(`continue with: supply-loader resume ${jobId}\n`);
    }
    return code;
  },
};
