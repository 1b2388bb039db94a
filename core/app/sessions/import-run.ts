/**
 * The dry run and the run of an open import (`import.plan`, `import.run`): the operations over the import
 * sessions (imports.ts) and the jobs runner (jobs-runner.ts).
 */
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { jobDir, newJobDir, newJobId, PLAN_ENTRIES_FILE, PLAN_FILE } from '../../jobs/job-store.js';
import type { DataSheetName } from '../../workbook/types.js';
import type { PlanOverview } from '../../contract/index.js';
import { AppError } from '../errors.js';
import { refusedForBlocked } from '../import.js';
import type { PlannedFolder } from './imports.js';
import { activeConnection, resolveConnection } from '../profiles.js';
import type { AppServices } from '../services.js';
import { failedIdentities } from './job-views.js';

/** `import.plan`: the dry run of an open import on the active connection; with onlyFailedOf, that job's failed rows. */
export async function planSession(
  app: AppServices,
  input: {
    importId: string;
    createOnly: boolean;
    onlyFailedOf?: string;
    mirror?: DataSheetName[];
    maxDeletes?: number;
  },
): Promise<PlanOverview> {
  const conn = await activeConnection(app);
  let previous;
  if (input.onlyFailedOf) {
    await app.sessions.jobs.meta(input.onlyFailedOf); // a job that is not there: refused in words
    previous = {
      jobId: input.onlyFailedOf,
      failed: await failedIdentities(app.sessions.jobs.jobsDir, input.onlyFailedOf),
    };
  }
  return app.sessions.imports.plan(app, app.sessions.jobs.jobsDir, input.importId, conn, {
    createOnly: input.createOnly,
    ...(previous ? { previous } : {}),
    ...(input.mirror ? { mirror: input.mirror } : {}),
    ...(input.maxDeletes !== undefined ? { maxDeletes: input.maxDeletes } : {}),
  });
}

/**
 * `import.run`: the plan of an open import as a job on the connection it was made on — refused when that is not
 * the active connection any more, or when entries are blocked and the user did not confirm (app/import.ts); the
 * workbook's mapping rows are remembered in the profile once the job completed.
 */
export async function runSession(app: AppServices, importId: string, skipBlocked: boolean): Promise<string> {
  const w = app.sessions;
  const s = w.imports.get(importId);
  const planned = s.planned;
  if (!s.plan || !planned || !s.planInfo) throw new AppError('invalid_input', 'Make the dry run first.');
  const active = app.settings.snapshot().activeProfileId;
  if (active !== s.planInfo.profileId) {
    throw new AppError(
      'invalid_input',
      `The dry run was made on the connection “${s.planInfo.profileName}”, which is not the active one any more. Make the dry run again.`,
    );
  }
  const blocked = refusedForBlocked(s.plan, skipBlocked);
  if (blocked !== null) {
    throw new AppError(
      'invalid_input',
      `${blocked} row(s) are blocked. Fix them, or confirm that the rest is imported without them.`,
    );
  }
  const conn = await resolveConnection(app, s.planInfo.profileId);
  // The dry run's read of the affected instances' current LCA results ("before") finishes before the job writes.
  await w.impacts.settled(planned.jobId);
  const remember = planned.remember;
  const onCompleted = remember
    ? () => {
        const r = remember(app.settings, conn.profileId);
        app.log.info({ profileId: conn.profileId, ...r }, 'remembered the workbook mappings in the profile');
      }
    : undefined;
  // The job runs in the dry run's folder; a second job of the same dry run gets a copy of its plan.
  const adopting = !planned.adopted;
  const jobId = adopting ? planned.jobId : await copyPlanned(planned);
  try {
    await w.jobs.start(jobId, {
      conn,
      inputPath: s.inputPath,
      csvSources: s.csvSources,
      ...(s.workbookName && { workbookName: s.workbookName }),
      ...(onCompleted ? { onCompleted } : {}),
    });
  } catch (e) {
    if (!adopting) await rm(jobDir(planned.jobsDir, jobId), { recursive: true, force: true });
    throw e;
  }
  planned.adopted = true;
  return jobId;
}

/** A copy of an adopted dry run's folder (its plan only) for another job of the same dry run. */
async function copyPlanned(p: PlannedFolder): Promise<string> {
  const jobId = newJobId();
  const { dir } = await newJobDir(p.jobsDir, jobId);
  const from = jobDir(p.jobsDir, p.jobId);
  await copyFile(path.join(from, PLAN_ENTRIES_FILE), path.join(dir, PLAN_ENTRIES_FILE));
  await copyFile(path.join(from, PLAN_FILE), path.join(dir, PLAN_FILE));
  return jobId;
}
