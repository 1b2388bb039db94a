/** `supply-loader undo JOB_ID [--dry-run] [--skip-blocked]`: take back a completed job (app/undo.ts). */
import { findJob } from '../../app/jobs.js';
import { resultWithEntries } from '../../app/import-job.js';
import { undoStoredJob } from '../../app/undo.js';
import { expectPositionals, flag } from '../shared/args.js';
import { connectContext, runContext } from '../shared/context.js';
import { jobRefusalAsUsage } from '../shared/errors.js';
import { exitCodeOf, jobProgress } from '../shared/importing.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { entryLines, formatPlan, formatResult } from '../output/views.js';

export const undoCommand: CliCommand = {
  name: 'undo',
  summary: 'Take back a completed job: its creates deleted, updates set back, BOMs put back, deletes re-created',
  usage: `supply-loader undo JOB_ID [--dry-run] [--skip-blocked] [--json]
  The undo's own dry run is always shown first: entities the job created are deleted, the fields it updated are
  set back to their values before the job, BOMs it replaced are put back, entities it deleted are re-created from
  the snapshot taken before the delete (with a new id). An entity changed on the service since the job (by
  anyone) is not touched: it is a conflict, saying what changed. The undo is itself a job ("supply-loader jobs"
  lists it with the job it undoes; "supply-loader resume" continues it).
  --dry-run       show the undo plan only: nothing is sent
  --skip-blocked  undo the rest when some entries are conflicts (by default nothing is sent then)
  Exit code 0: undone; 1: undone except conflicts or failed rows; 2: conflicts, nothing sent (or bad usage);
  3: stopped (resume it).`,
  options: { 'dry-run': { type: 'boolean' }, 'skip-blocked': { type: 'boolean' } },
  needsConnection: false,
  async run(values, positionals, ctx) {
    const [jobId] = expectPositionals(positionals, ['JOB_ID'], 'undo');
    const rc = runContext(ctx);
    await findJob(rc.jobsDir, jobId);
    const dryRun = flag(values, 'dry-run');
    await connectContext(ctx);
    const progress = dryRun ? null : jobProgress(rc);
    let r;
    try {
      r = await undoStoredJob(jobId, {
        client: ctx.client,
        jobsDir: rc.jobsDir,
        signal: ctx.signal,
        dryRun,
        skipBlocked: flag(values, 'skip-blocked'),
        ...(progress ? { onProgress: progress.onProgress } : {}),
        onStart: (id) => {
          if (!ctx.json)
            ctx.stderr(
              `undo job ${id} (journal in ${rc.jobsDir}); if it stops, continue with: supply-loader resume ${id}\n`,
            );
        },
      });
    } catch (e) {
      jobRefusalAsUsage(e, 'undo');
    } finally {
      progress?.done();
    }
    const blocked = r.blocked.length;
    if (!ctx.json) ctx.stdout(`Undo of job ${jobId}:\n${formatPlan(r.plan).join('\n')}\n`);
    if (r.stage === 'dry_run') {
      const code = blocked > 0 ? EXIT.usage : EXIT.ok;
      if (ctx.json)
        rc.printJson({ ok: code === EXIT.ok, exit_code: code, dry_run: true, undoes: jobId, blocked, plan: r.plan });
      else if (blocked > 0)
        ctx.stdout(
          `\n${blocked} entr${blocked === 1 ? 'y is a conflict' : 'ies are conflicts'}: an undo would send nothing (or the rest with --skip-blocked).\n`,
        );
      return code;
    }
    if (r.stage === 'blocked') {
      if (ctx.json)
        rc.printJson({ ok: false, exit_code: EXIT.usage, stage: 'plan', undoes: jobId, blocked, plan: r.plan });
      else {
        for (const e of r.blocked.slice(0, 200)) ctx.stderr(`${entryLines(e).join('\n')}\n`);
        ctx.stderr(
          `${blocked} entr${blocked === 1 ? 'y is a conflict' : 'ies are conflicts'} (above). Nothing was sent: undo the rest with --skip-blocked.\n`,
        );
      }
      return EXIT.usage;
    }
    const code = exitCodeOf(r.result);
    const undoId = r.result.result.jobId;
    if (ctx.json)
      rc.printJson({
        ok: code === EXIT.ok,
        exit_code: code,
        job_id: undoId,
        undoes: jobId,
        blocked,
        plan_summary: r.plan.summary,
        result: await resultWithEntries(r.result),
      });
    else {
      ctx.stdout(`${(await formatResult(r.result)).join('\n')}\n`);
      await r.result.index.close();
      if (code === EXIT.aborted) ctx.stdout(`continue with: supply-loader resume ${undoId}\n`);
    }
    return code;
  },
};
