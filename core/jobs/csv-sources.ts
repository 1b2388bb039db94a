/**
 * Results of CSV sources in their own layout, shared by the CLI (`import --report DIR`) and the
 * app (Jobs screen downloads): the outcome of every source row from the job's row marks, written by
 * workbook/csv-results.ts in the source's columns, encoding and delimiter.
 *
 * A job of the app keeps what it needs in its own folder (so the files can be made after a restart, and from
 * exactly the file the plan was made from): a copy of each CSV source under its own name in `sources/` and
 * `csv-sources.json` with the sheet it fed, its header row (the mapping's), how it was read and which of its
 * columns is which field.
 *
 * An entry no source row stands for (a delete of a mirrored sheet) that did not succeed is a row appended to the
 * files of the first source of its sheet: its code in the source's identity column, `delete` in its action
 * column (when it has one), the outcome in the result columns. So the failed-rows file has as many rows as the
 * job counts failed rows, as the failed-rows workbook does (jobs/row-marks.ts `rowlessFailedRow`).
 */
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import { writeCsvResults, type AppendedRow, type SourceRowOutcome } from '../workbook/csv-results.js';
import { partsOf } from '../workbook/sheet-parts.js';
import type { ColumnMapping } from '../workbook/column-mapping/schema.js';
import { CODE_MAPPING_SHEETS, type CsvFormat, type DataSheetName, type ParsedWorkbook } from '../workbook/types.js';
import type { RowMark, RowMarks } from './row-marks.js';
import { writeTextAtomic } from '../fs/atomic.js';

/** One CSV source of an import: where it is, which sheet it fed, its header row and how it was read. */
export interface CsvSource {
  path: string;
  sheet: DataSheetName;
  headerRow: number;
  format: CsvFormat;
  /** Offset of its row numbers in the sheet when several sources feed it (workbook/sheet-parts.ts); 0 else. */
  offset?: number;
  /** field → column letter in the source (absent in the folders of jobs kept by older versions). */
  columns?: Record<string, string>;
}

export const CSV_SOURCES_FILE = 'csv-sources.json';
const SOURCES_DIR = 'sources';

interface StoredCsvSource {
  /** the source's file name (what the user knows; also the copy's name in `sources/`) */
  file: string;
  sheet: DataSheetName;
  headerRow: number;
  format: CsvFormat;
  offset?: number;
  columns?: Record<string, string>;
}

/**
 * A source row's outcome from the job's row marks (jobs/row-marks.ts: from the job's compact index, or from a plan
 * and result in memory): the same words and message as the results workbook; a row not run yet is `not run`.
 */
function sourceOutcome(mark: RowMark): SourceRowOutcome {
  return {
    result: mark.outcome === 'pending' ? 'not run' : mark.outcome,
    ...(mark.id && { id: mark.id }),
    ...(mark.errCode && { err_code: mark.errCode }),
    ...(mark.message && { message: mark.message }),
    failed: !mark.succeeded,
  };
}

/** The outcome of each row of one source (1-based record number) from the job's row marks; held by no map. */
export function sourceOutcomes(
  marks: RowMarks,
  sheet: DataSheetName,
  offset = 0,
): { get(row: number): SourceRowOutcome | undefined } {
  const rows = marks.sheet(sheet);
  return {
    get: (row) => {
      const mark = rows.get(offset + row);
      return mark ? sourceOutcome(mark) : undefined;
    },
  };
}

/** The base of the output names of a CSV source: `MAT_2025-11.csv` → `MAT_2025-11` (`.results.csv`, `.failed.csv`). */
export function csvResultBase(file: string): string {
  return path.basename(file).replace(/\.(csv|txt|tsv)$/i, '') || 'source';
}

/**
 * The rows a source's files get for entries without a source row (RowMarks.rowless): those of its sheet, for
 * the sheet's first source only (offset 0; when a workbook is that, its failed-rows workbook has them).
 */
function appendedRows(source: CsvSource, marks: RowMarks): AppendedRow[] {
  if (source.offset) return [];
  const out: AppendedRow[] = [];
  for (const r of marks.rowless ?? []) {
    if (r.sheet !== source.sheet) continue;
    const text = (f: string) => {
      const v = r.values[f];
      return typeof v === 'string' ? v : '';
    };
    const message = text('_message') || r.mark.message;
    out.push({
      values: { external_id: text('external_id') },
      // a re-run of the file deletes it again (as the failed-rows workbook's row)
      optional: { action: 'delete' },
      outcome: { ...sourceOutcome(r.mark), ...(message && { message }) },
    });
  }
  return out;
}

/** The results and/or failed-rows CSV of one source; returns how many rows the failed-rows file holds. */
export async function writeCsvSourceResults(
  source: CsvSource,
  marks: RowMarks,
  outs: { results?: string; failed?: string },
): Promise<{ failedRows: number }> {
  return writeCsvResults({
    source: source.path,
    format: source.format,
    headerRow: source.headerRow,
    outcomes: sourceOutcomes(marks, source.sheet, source.offset ?? 0),
    appended: appendedRows(source, marks),
    ...(source.columns && { columns: source.columns }),
    // The rows of a code-mapping sheet (plants, materials) are no entries of their own: they were used to
    // resolve codes (the results workbook marks them `mapping` too), never "not imported".
    ...((CODE_MAPPING_SHEETS as readonly string[]).includes(source.sheet) && {
      otherRows: {
        result: 'mapping',
        failed: false,
        message: `used to resolve the ${source.sheet === 'plants' ? 'plant' : 'material'} codes of the other sources`,
      },
    }),
    ...(outs.results && { results: outs.results }),
    ...(outs.failed && { failed: outs.failed }),
  });
}

/**
 * The CSV sources of a read workbook: its sheets that came from a CSV file. `pathOf` gives the file of a
 * sheet's source name (the CSV's file name); the header row is the mapping's (1 without one).
 */
export function csvSourcesOf(
  parsed: ParsedWorkbook,
  mapping: ColumnMapping | undefined,
  pathOf: (sourceName: string) => string | undefined,
): CsvSource[] {
  const out: CsvSource[] = [];
  for (const s of parsed.sheets)
    for (const part of partsOf(s)) {
      if (!part.csv) continue;
      const p = pathOf(part.sheetName);
      if (!p) throw new Error(`The source file of ${part.sheetName} is not known.`);
      out.push({
        path: p,
        sheet: s.name,
        headerRow: mapping?.sheets[s.name]?.header_row ?? 1,
        format: part.csv,
        ...(part.offset && { offset: part.offset }),
        columns: { ...part.columns },
      });
    }
  return out;
}

/** Copy the CSV sources into a job's folder (under their own names) with what is needed to write their results. */
export async function keepCsvSources(dir: string, sources: readonly CsvSource[], workbook?: string): Promise<void> {
  if (sources.length === 0) return;
  await mkdir(path.join(dir, SOURCES_DIR), { recursive: true });
  const stored: StoredCsvSource[] = [];
  for (const s of sources) {
    const file = path.basename(s.path);
    if (stored.some((x) => x.file === file)) throw new Error(`Two sources are named ${file}: rename one of them.`);
    await copyFile(s.path, path.join(dir, SOURCES_DIR, file));
    stored.push({
      file,
      sheet: s.sheet,
      headerRow: s.headerRow,
      format: s.format,
      ...(s.offset && { offset: s.offset }),
      ...(s.columns && { columns: s.columns }),
    });
  }
  // `workbook`: the name of a workbook among the sources (its copy is kept by the caller; its results are a workbook)
  const doc = { version: 1, sources: stored, ...(workbook && { workbook }) };
  await writeTextAtomic(
    path.join(dir, CSV_SOURCES_FILE),
    `${JSON.stringify(doc, null, 2)}
`,
  );
}

/** The CSV sources kept in a job's folder ([] for a job of a workbook, or of a version that kept none). */
export async function keptCsvSources(dir: string): Promise<(CsvSource & { file: string })[]> {
  const f = path.join(dir, CSV_SOURCES_FILE);
  if (!fs.existsSync(f)) return [];
  const doc = JSON.parse(await readFile(f, 'utf8')) as { sources: StoredCsvSource[] };
  return doc.sources.map((s) => ({ ...s, path: path.join(dir, SOURCES_DIR, path.basename(s.file)) }));
}

/** The name of the workbook a job of mixed sources read beside its CSV files (null: none). */
export async function keptWorkbookName(dir: string): Promise<string | null> {
  const f = path.join(dir, CSV_SOURCES_FILE);
  if (!fs.existsSync(f)) return null;
  const doc = JSON.parse(await readFile(f, 'utf8')) as { workbook?: string };
  return typeof doc.workbook === 'string' ? doc.workbook : null;
}
