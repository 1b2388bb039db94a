/** `supply-loader resume JOB_ID`: continue an interrupted, aborted or paused import job — no duplicate, no lost row. */
import { findJob } from '../../app/jobs.js';
import { resultWithEntries, resumeImportJob } from '../../app/import-job.js';
import { writeJobResultFiles } from '../../app/import-results.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import { defaultImpactFile, impactAsked, keepImpactAsked, readLcaImpactDryRun } from '../../app/lca-impact.js';
import { expectPositionals, flag, intOption } from '../shared/args.js';
import { connectContext, runContext } from '../shared/context.js';
import { jobRefusalAsUsage } from '../shared/errors.js';
import { clientCap, exitCodeOf, jobProgress } from '../shared/importing.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { formatResult } from '../output/views.js';
import { IMPORT_OPTIONS, outputPaths } from './import.js';
import { impactAfterJob, impactJson } from './lca-impact.js';

export const resumeCommand: CliCommand = {
  name: 'resume',
  summary: 'Continue an import job that stopped (crash, kill, Ctrl+C, key refused, daily limit)',
  usage: `supply-loader resume JOB_ID [--report OUT.xlsx] [--failed OUT.xlsx] [--concurrency N] [--lca-impact]
  Rows already done are not sent again; a write whose answer was lost is checked on the service first.
  The key may differ from the one the job started with (e.g. after a revoked key), but must belong to the
  same manufacturer. "supply-loader jobs" lists the jobs.
  --lca-impact  once the job has ended, recompute the product instances it affects and write the impact report
                to <source name>.impact.xlsx (as import --lca-impact; see "lca impact"). A job imported with
                --lca-impact keeps it without the flag.`,
  options: { ...IMPORT_OPTIONS, 'lca-impact': { type: 'boolean' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [jobId] = expectPositionals(positionals, ['JOB_ID'], 'resume');
    const rc = runContext(ctx);
    // A completed job is not refused: resuming it again answers the same (scripts may rerun it).
    const meta = await findJob(rc.jobsDir, jobId);
    const outs = outputPaths(values, rc, 'resume');
    const concurrency = intOption(values, 'concurrency', 1, 256, 'resume');
    // The LCA impact after the job: asked now, or by the import that started it (kept in the job folder).
    const asked = flag(values, 'lca-impact');
    const lca = asked || (await impactAsked(rc.jobsDir, jobId));
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
    let code = exitCodeOf(run);
    if (asked) await keepImpactAsked(rc.jobsDir, jobId);
    const say = ctx.json ? undefined : { stdout: ctx.stdout, stderr: ctx.stderr };
    const impact =
      lca && code !== EXIT.aborted
        ? await impactAfterJob(rc, jobId, await defaultImpactFile(rc.jobsDir, jobId, rc.cwd), say)
        : null;
    if (impact && code === EXIT.ok) code = impact.code;
    if (ctx.json) {
      rc.printJson({
        ok: code === EXIT.ok,
        exit_code: code,
        job_id: jobId,
        result: await resultWithEntries(run),
        files,
        ...(lca && { lca_impact: impactJson(await readLcaImpactDryRun(rc.jobsDir, jobId), impact) }),
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
