/** The limits a file is read within, and a problem with the file as a whole (reading stops), said in words. */
import type { IssueCode, IssueParams, ReadLimits } from './types.js';

export const DEFAULT_LIMITS: ReadLimits = {
  maxFileBytes: 100 * 1024 * 1024,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  ratioCheckFromBytes: 16 * 1024 * 1024,
  maxEntries: 10_000,
  maxRowsPerSheet: 200_000,
  maxIssues: 10_000,
};

/** A problem with the file as a whole: reading stops. */
export class FileLevelError extends Error {
  constructor(
    readonly code: IssueCode,
    message: string,
    /** What the message is built from (see Issue.params): `variant` tells apart the messages of one code. */
    readonly params?: IssueParams,
  ) {
    super(message);
    this.name = 'FileLevelError';
  }
}

export const MB = 1024 * 1024;

/** A size in words: `12 MB`, `1.5 MB`, `40 KB`. */
export function fmtBytes(n: number): string {
  return n >= MB ? `${(n / MB).toFixed(n >= 10 * MB ? 0 : 1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
