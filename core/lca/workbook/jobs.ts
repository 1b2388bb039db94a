/**
 * `jobs`: one row per instance: outcome, job status, err_code, the catalog's explanation, job times where
 * given; unknown job fields as `job.…` columns, unknown answer fields as `response.…`.
 */
import { type CellValue, type FlatRecord, unknownFields } from '../flatten.js';
import { JOB_FIELDS } from '../model.js';
import type { ExportContext } from './context.js';
import { INSTANCE_COLUMNS, col, instanceCells, text, yesNo } from './columns.js';
import { SheetBuilder } from './sheet.js';

const jobText = (job: Record<string, unknown> | null, f: string): CellValue => {
  const v = job?.[f];
  return typeof v === 'string' || typeof v === 'number' ? v : null;
};

export function jobsSheet(ctx: ExportContext): SheetBuilder {
  const jobs = new SheetBuilder(
    'jobs',
    [
      ...INSTANCE_COLUMNS,
      text('instance_id', 38),
      text('outcome', 14),
      text('job_status', 12),
      text('err_code', 30),
      text('explanation', 60),
      text('action', 50),
      text('message', 50),
      col('recomputed', 11),
      col('waited_for_running_job', 14),
      col('years_computed', 10, '0'),
      col('years_blocked', 10, '0'),
      text('job_id', 38),
      text('queued_at', 25),
      text('started_at', 25),
      text('finished_at', 25),
    ],
    ctx.maxExtra,
  );
  for (const { i, years } of ctx.parsed) {
    const jobExtra: FlatRecord = i.job ? unknownFields(i.job, JOB_FIELDS, 'job.') : {};
    jobs.add(
      {
        ...instanceCells(i),
        instance_id: i.instance.id,
        outcome: i.outcome,
        job_status: i.job_status,
        err_code: i.err_code,
        explanation: i.explanation,
        action: i.action,
        message: i.msg,
        recomputed: yesNo(i.recomputed),
        waited_for_running_job: yesNo(i.waited_for_running_job),
        years_computed: i.results.length ? years.filter((y) => y.status === 'computed').length : null,
        years_blocked: i.results.length ? years.filter((y) => y.status === 'blocked').length : null,
        job_id: jobText(i.job, 'id'),
        queued_at: jobText(i.job, 'queued_at'),
        started_at: jobText(i.job, 'started_at'),
        finished_at: jobText(i.job, 'finished_at'),
      },
      { ...jobExtra, ...i.response_extra },
    );
  }
  return jobs;
}
