/**
 * Results of a CSV source in the source's own layout: the source's rows and columns as they are
 * (title rows, header, the user's own column names) plus `_result`, `_id`, `_err_code`, `_message`, written in
 * the source's encoding (with its byte-order mark) and delimiter; and the failed rows alone, in the same layout,
 * so the user fixes the ERP export and imports the file again with the same mapping. Streams both ways.
 *
 * It receives the outcome per source row from its caller (the job's per-row outcomes), so it does not depend
 * on how the job engine stores them.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import iconv from 'iconv-lite';
import type { CsvFormat } from './types.js';
import { columnNumber } from './cell-ref.js';

import { RESULT_COLUMNS } from '../names.js';

export interface SourceRowOutcome {
  /** `created`, `updated`, `unchanged`, `failed`, `skipped`, `blocked`, `not run` … */
  result: string;
  id?: string;
  err_code?: string;
  message?: string;
  /** The row did not succeed: it goes into the failed-rows file. */
  failed: boolean;
}

/** A row of the results files that no row of the source stands for. */
export interface AppendedRow {
  /** field → value (`external_id`): written in its column, or named in the message when the source has none */
  values: Readonly<Record<string, string>>;
  /** field → value (`action`) written only where the source has a column for it */
  optional?: Readonly<Record<string, string>>;
  outcome: SourceRowOutcome;
}

export interface CsvResultsOptions {
  source: string;
  format: CsvFormat;
  /** 1-based header row of the source (rows above it are copied as they are). */
  headerRow: number;
  /** Outcome per 1-based source row (record number). Data rows without one are "not imported". */
  outcomes: { get(row: number): SourceRowOutcome | undefined };
  /** The outcome of a data row without one (default: "not imported", a failed row). */
  otherRows?: SourceRowOutcome;
  /**
   * Rows written after the source's own, for entries no row of the source stands for (a mirror's deletes): each
   * value in its field's column, the other columns empty, the outcome in the result columns.
   */
  appended?: readonly AppendedRow[];
  /**
   * field → column letter of the source, where `appended` values go; without it (a job kept by an older
   * version), a header cell spelled as the field (a source read without a mapping has the field names).
   */
  columns?: Readonly<Record<string, string>>;
  results?: string;
  failed?: string;
}

/** Text never becomes a formula when the file is opened in Excel: a leading = + - @ gets an apostrophe. */
function safe(s: string | undefined): string {
  if (!s) return '';
  return /^[=+\-@]/.test(s) ? `'${s}` : s;
}

/** Returns the number of data rows written to the failed-rows file (0 when none was asked for). */
export async function writeCsvResults(o: CsvResultsOptions): Promise<{ failedRows: number }> {
  const targets: { done: Promise<void>; failedOnly: boolean; out: ReturnType<typeof stringify> }[] = [];
  for (const [path, failedOnly] of [
    [o.results, false],
    [o.failed, true],
  ] as const) {
    if (!path) continue;
    // A value with a line break of any kind is quoted: csv-stringify quotes only one holding the record
    // delimiter (CRLF), so a lone CR or LF (Alt+Enter in Excel) would end the record when the file is read again.
    const out = stringify({ delimiter: o.format.delimiter, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
    out.setEncoding('utf8');
    const done = pipeline(
      out,
      iconv.encodeStream(o.format.encoding, { addBOM: o.format.bom }),
      createWriteStream(path),
    );
    targets.push({ done, failedOnly, out });
  }
  if (targets.length === 0) return { failedRows: 0 };
  let recordNo = 0;
  let failedRows = 0;
  let width = 0;
  let header: string[] = [];
  const router = new Transform({
    objectMode: true,
    transform(record: string[], _enc, cb) {
      recordNo++;
      if (recordNo <= o.headerRow) {
        if (recordNo === o.headerRow) {
          width = record.length;
          header = record;
        }
        const row = recordNo === o.headerRow ? [...record, ...RESULT_COLUMNS] : record;
        for (const t of targets) t.out.write(row);
        cb();
        return;
      }
      if (record.every((v) => v.trim() === '')) {
        for (const t of targets) if (!t.failedOnly) t.out.write(record);
        cb();
        return;
      }
      const oc = o.outcomes.get(recordNo) ??
        o.otherRows ?? { result: 'not imported', failed: true, message: 'the row was not part of the import' };
      const padded = record.length < width ? [...record, ...Array<string>(width - record.length).fill('')] : record;
      const row = [...padded, oc.result, oc.id ?? '', oc.err_code ?? '', safe(oc.message)];
      if (oc.failed && o.failed) failedRows++;
      for (const t of targets) if (!t.failedOnly || oc.failed) t.out.write(row);
      cb();
    },
  });
  await pipeline(
    createReadStream(o.source),
    iconv.decodeStream(o.format.encoding),
    parse({
      delimiter: o.format.delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }),
    router,
    new Writable({ objectMode: true, write: (_c, _e, cb) => cb() }),
  );
  for (const a of o.appended ?? []) {
    const row = appendedRow(a, width, columnIndexes(o.columns, header));
    if (a.outcome.failed && o.failed) failedRows++;
    for (const t of targets) if (!t.failedOnly || a.outcome.failed) t.out.write(row);
  }
  for (const t of targets) t.out.end();
  await Promise.all(targets.map((t) => t.done));
  return { failedRows };
}

/** field → 0-based column of the source: the given letters, else header cells spelled as fields. */
function columnIndexes(
  columns: Readonly<Record<string, string>> | undefined,
  header: readonly string[],
): (field: string) => number | undefined {
  if (columns) return (field) => (columns[field] ? columnNumber(columns[field]) - 1 : undefined);
  const byName = new Map<string, number>();
  header.forEach((h, i) => {
    const k = h
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase();
    if (k && !byName.has(k)) byName.set(k, i);
  });
  return (field) => byName.get(field);
}

/**
 * An appended row in the source's columns plus the result columns. A value whose field has no column in the
 * source is not lost: the message names it (`external_id MF-9: the file has no column for it`).
 */
function appendedRow(a: AppendedRow, width: number, columnOf: (field: string) => number | undefined): string[] {
  const cells = Array<string>(width).fill('');
  const homeless: string[] = [];
  const put = (values: Readonly<Record<string, string>> | undefined, required: boolean) => {
    for (const [field, value] of Object.entries(values ?? {})) {
      const i = columnOf(field);
      // as the source's own cells: verbatim (a code is re-imported from here, an apostrophe would change it)
      if (i !== undefined && i < width) cells[i] = value;
      else if (required) homeless.push(`${field} ${value}`);
    }
  };
  put(a.values, true);
  put(a.optional, false);
  const oc = a.outcome;
  const message = [
    ...homeless.map((h) => `${h}: the file has no column for it`),
    ...(oc.message ? [oc.message] : []),
  ].join('; ');
  return [...cells, oc.result, oc.id ?? '', oc.err_code ?? '', safe(message)];
}
