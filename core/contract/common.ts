/** Small schemas the namespaces share: numbers, texts, ids of imports, jobs, runs and downloads, a download ticket, a page. */
import { z } from 'zod';

export const Int = z.number().int();
export const NonNegInt = Int.min(0);
export const Text = z.string();
export const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** Counts per action or outcome (only the ones that occur). */
export const Counts = z.record(z.string(), NonNegInt);

export const ImportId = z.uuid();
export const JobIdSchema = z
  .string()
  .regex(/^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/, 'not a job id (like 20260101-120000-a1b2c3)');
export const RunId = z.uuid();
export const DownloadId = z.uuid();

export const DownloadTicketSchema = z.object({
  downloadId: DownloadId,
  fileName: Text,
  mimeType: Text,
  size: NonNegInt,
});

export const Empty = z.object({}).strict();
export const Accepted = z.object({ accepted: z.boolean() });
/** A page of a long list (plan rows, job rows): at most 500 rows at once. */
export const Page = { offset: NonNegInt.max(10_000_000), limit: Int.min(1).max(500) };

/** One procedure of the contract. */
export interface ProcedureDef {
  input: z.ZodType;
  output: z.ZodType;
  /** one line for reviewers of the surface snapshot */
  summary: string;
}
