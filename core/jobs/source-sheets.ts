/**
 * The input workbook read again by the results writers: its worksheets in workbook order, each a stream of rows
 * with values and styles (sourceSheets), a cell's value as a plain value (plainValue), and the check that an
 * output is not the input itself (sameFile).
 */
import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { DEFAULT_LIMITS, FileLevelError, inspectWorkbookFile, type ZipSheetInfo } from '../workbook/guards.js';
import { feedOf, raceStop, workbookFeed, type ColDef, type FeedFindings } from '../workbook/feed.js';
import type { Slicer } from '../throttle.js';
import type { WritableValue } from '../workbook/xlsx-layout.js';
import { isLegacySource, legacyXlsxCopy } from '../workbook/sources/legacy.js';

/** A row as exceljs's streaming reader gives it. */
export type SourceRow = ExcelJS.Row;

export interface SourceSheet {
  name: string;
  state: ZipSheetInfo['state'];
  /** The sheet's column definitions (known once its first row has arrived: `<cols>` precedes the rows). */
  columns(): readonly ColDef[];
  /** The style of a style index of the input (columns', rows' and cells' style ids). */
  style(id: number): Partial<ExcelJS.Style> | undefined;
  rows(): AsyncGenerator<SourceRow>;
  /** Merged ranges ('A1:B2'), complete once the rows are done. */
  merges(): string[];
  /** The sheet's `<dataValidations>` element as XML, once the rows are done (null: none, or too long to catch). */
  validations(): string | null;
}

/**
 * The input's worksheets in workbook order, each a stream of rows with values and styles (exceljs's
 * streaming reader fed by workbook/feed.ts: each part inflated once, shared strings and styles before the
 * worksheets). Only what one row holds is in memory at a time. `want` picks sheets by name. `slicer`: the input
 * is fed to the reader in portions with turns of the event loop between them as it says (FeedInput.slicer), for a
 * reader beside a running job; the rows must still be taken as they come.
 */
export async function* sourceSheets(
  path: string,
  want: (name: string) => boolean,
  slicer?: Slicer,
): AsyncGenerator<SourceSheet> {
  if (isLegacySource(path)) {
    // An .xls / .ods is read in its .xlsx copy, as when it was validated (workbook/sources/legacy.ts).
    const copy = await legacyXlsxCopy(path);
    try {
      yield* xlsxSheets(copy.path, want, slicer);
    } finally {
      await copy.dispose();
    }
    return;
  }
  yield* xlsxSheets(path, want, slicer);
}

async function* xlsxSheets(
  path: string,
  want: (name: string) => boolean,
  slicer: Slicer | undefined,
): AsyncGenerator<SourceSheet> {
  const inspection = await inspectWorkbookFile(path, DEFAULT_LIMITS);
  const sheets = inspection.sheets.filter((s) => s.path && inspection.entryNames.includes(s.path) && want(s.name));
  const findings: FeedFindings = {
    bytes: 0,
    merges: new Map(),
    errorCells: new Map(),
    styledCells: new Map(),
    cols: new Map(),
    validations: new Map(),
  };
  const stop = new AbortController();
  const feed = workbookFeed(
    { ...feedOf(path, inspection, sheets), stylesPath: inspection.stylesPath, ...(slicer && { slicer }) },
    findings,
    (e) => stop.abort(e),
  );
  // exceljs cannot be stopped mid-file: every await on it also listens to the feed's failure (feed.ts raceStop).
  const race = <T>(p: Promise<T>): Promise<T> => raceStop(stop.signal, p);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(feed, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const iter = (reader as unknown as AsyncIterable<StreamSheet>)[Symbol.asyncIterator]();
  const reached = new Set<number>();
  try {
    for (;;) {
      const next = await race(iter.next());
      if (next.done) break;
      const ws = next.value;
      const index = Number(ws.id) - 1;
      const info = sheets[index];
      if (!info) continue;
      reached.add(index);
      yield {
        name: info.name,
        state: info.state,
        // exceljs's streaming reader drops `<cols>` (Column.fromModel is called without its worksheet), so the
        // feed's scanner picks them up.
        columns: () => findings.cols?.get(index) ?? [],
        style: (id) =>
          (
            reader as unknown as { styles: { getStyleModel(id: number): Partial<ExcelJS.Style> | undefined } }
          ).styles.getStyleModel(id),
        merges: () => findings.merges.get(index) ?? [],
        validations: () => findings.validations?.get(index) ?? null,
        rows: async function* () {
          const batches = ws.parse()[Symbol.asyncIterator]();
          for (;;) {
            const batch = await race(batches.next());
            if (batch.done) break;
            for (const ev of batch.value) if (ev.eventType === 'row') yield ev.value;
          }
        },
      };
    }
    // exceljs's streaming reader can end early without an error (e.g. when its consumer waits for other I/O
    // between rows, exceljs/exceljs#2790): a sheet lost that way is an error, never a shorter copy.
    const lost = sheets.find((_, i) => !reached.has(i));
    if (lost)
      throw new Error(`the input workbook could not be read whole: its sheet "${lost.name}" was never reached.`);
  } catch (e) {
    if (e instanceof FileLevelError) throw new Error(`the input workbook cannot be read again: ${e.message}`);
    throw e;
  } finally {
    if (stop.signal.aborted) feed.destroy();
  }
}

interface StreamSheet {
  id: number | string;
  parse(): AsyncIterable<{ eventType: string; value: SourceRow }[]>;
}

/** A cell's value as a plain value: formulas by their result, rich text and hyperlinks by their text. */
export function plainValue(v: ExcelJS.CellValue): WritableValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('error' in v) return String(v.error);
    if ('result' in v) return plainValue(v.result as ExcelJS.CellValue);
    if ('sharedFormula' in v) return null;
    if ('formula' in v) return null;
  }
  return String(v);
}

export function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}
