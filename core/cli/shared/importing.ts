/**
 * What plan, import, resume and watch share: planning into a job folder with a progress bar (app/import-job.ts
 * planJob), driving a job with a progress bar, and the exit code of a job.
 */
import { MIRRORABLE_SHEETS } from '../../app/import.js';
import { jobVerdict, planJob, type PlannedJob } from '../../app/import-job.js';
import { normaliseSheetName } from '../../workbook/registry.js';
import type { DataSheetName } from '../../workbook/types.js';
import { intOption, str } from './args.js';
import { CliUsageError } from './errors.js';
import type { IndexedJobResult } from '../../app/import-job.js';
import type { JobProgress } from '../../app/import-job.js';
import { connectContext, type RunContext } from './context.js';
import { savedMappingsFor } from './code-mappings.js';
import { EXIT, type CliProgress, type ExitCode } from './types.js';
import { loadWorkbook, type LoadedWorkbook } from './workbook.js';
import { mark } from '../output/timings.js';
import { DEFAULT_MAX_CONCURRENCY } from '../../api/defaults.js';

/**
 * The client's cap for a job run with `--concurrency N`: N limits the job's writes (its write slots); reads —
 * the planner's, sent side by side — may still go DEFAULT_MAX_CONCURRENCY at a time, so that a small N does not
 * turn the planning reads' one round trip into two (10 reads at N = 8 took two).
 */
export function clientCap(concurrency: number | undefined): { maxConcurrency?: number } {
  return concurrency ? { maxConcurrency: Math.max(concurrency, DEFAULT_MAX_CONCURRENCY) } : {};
}

/**
 * The plan (app/import-job.ts planJob) into a new folder of `jobsDir` with the profile's saved mappings and a
 * progress bar per phase; its entries written as they are decided. The CLI does not remember the workbook's code
 * mappings in the profile (`profile mappings save FILE` is its explicit way).
 */
export async function planIntoJob(
  ctx: RunContext,
  w: LoadedWorkbook,
  o: { createOnly: boolean; maxConcurrency?: number; mirror?: DataSheetName[]; maxDeletes?: number; jobId?: string },
  jobsDir: string,
): Promise<PlannedJob> {
  // The key is checked by the planner's /v2/me, sent beside its first reads (not one round trip before them).
  await connectContext(ctx, {
    checkKey: false,
    ...(o.maxConcurrency !== undefined ? { maxConcurrency: o.maxConcurrency } : {}),
  });
  mark('connected');
  let bar: CliProgress | undefined;
  let phase = '';
  let seen = 0;
  const mappings = savedMappingsFor(ctx);
  const plan = await planJob(
    jobsDir,
    w,
    {
      client: ctx.client,
      ...(mappings ? { mappings } : {}),
      ...(w.walks ? { walks: w.walks } : {}),
      signal: ctx.signal,
      onProgress: (p) => {
        if (p.phase !== phase) {
          bar?.done();
          bar = ctx.progress(p.total, `planning: ${p.phase.replace(/_/g, ' ')}`);
          phase = p.phase;
          seen = 0;
        }
        bar?.tick(p.done - seen);
        seen = p.done;
      },
    },
    {
      createOnly: o.createOnly,
      ...(o.mirror ? { mirror: o.mirror } : {}),
      ...(o.maxDeletes !== undefined ? { maxDeletes: o.maxDeletes } : {}),
      ...(o.jobId !== undefined ? { jobId: o.jobId } : {}),
      rememberMappings: false,
    },
  );
  bar?.done();
  return plan;
}

export { loadWorkbook };

/** A progress callback for runJob/resumeJob drawing one bar over worksheet rows. */
export function jobProgress(ctx: RunContext): { onProgress: (p: JobProgress) => void; done: () => void } {
  let bar: CliProgress | undefined;
  let seen = 0;
  return {
    onProgress: (p) => {
      bar ??= ctx.progress(p.total, 'importing');
      if (p.done > seen) bar.tick(p.done - seen, p.byOutcome.failed ? `${p.byOutcome.failed} failed` : undefined);
      seen = Math.max(seen, p.done);
    },
    done: () => bar?.done(),
  };
}

const EXIT_OF = { ok: EXIT.ok, partial: EXIT.partial, stopped: EXIT.aborted } as const;

/**
 * 0: every row succeeded or was unchanged (rows left out on purpose by --create-only count as unchanged);
 * 1: some rows failed or were skipped; 3: the job stopped before the end (key refused, daily limit, cancelled).
 */
export function exitCodeOf(r: IndexedJobResult): ExitCode {
  return EXIT_OF[jobVerdict(r)];
}

/** `--mirror SHEET[,SHEET]` and `--max-deletes N` of plan and import. */
export const MIRROR_OPTIONS = { mirror: { type: 'string' }, 'max-deletes': { type: 'string' } } as const;

export const MIRROR_USAGE = `  --mirror SHEET[,SHEET]  delete the entities of that sheet's type on the service that carry an external_id
                          and are not in the sheet (entities without an external_id are never touched)
  --max-deletes N         a mirrored sheet deleting more than N is blocked and deletes nothing (default: 10 %
                          of that type's entities with an external_id, at least 5)`;

export function mirrorOptions(
  values: Record<string, unknown>,
  command: string,
): { mirror?: DataSheetName[]; maxDeletes?: number } {
  const out: { mirror?: DataSheetName[]; maxDeletes?: number } = {};
  const m = str(values, 'mirror');
  if (m !== undefined) {
    const sheets: DataSheetName[] = [];
    for (const part of m
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      const name = normaliseSheetName(part) as DataSheetName;
      if (!MIRRORABLE_SHEETS.includes(name))
        throw new CliUsageError(
          `--mirror: "${part}" is not a sheet that can be mirrored (one of ${MIRRORABLE_SHEETS.join(', ')})`,
          command,
        );
      if (!sheets.includes(name)) sheets.push(name);
    }
    if (sheets.length === 0) throw new CliUsageError('--mirror needs at least one sheet name', command);
    out.mirror = sheets;
  }
  const max = intOption(values, 'max-deletes', 0, 1_000_000_000, command);
  if (max !== undefined) {
    if (!out.mirror) throw new CliUsageError('--max-deletes applies to --mirror: give the sheets to mirror', command);
    out.maxDeletes = max;
  }
  return out;
}
