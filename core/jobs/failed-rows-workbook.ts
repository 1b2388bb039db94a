/**
 * The failed-rows workbook of a job (writeFailedRowsWorkbook): only the rows that did not succeed, in the
 * template format (with the mapping sheets, so the codes resolve the same way), ready to fix and import again. A
 * delete without a row of its own (a mirrored sheet's) that did not succeed gets one: its code, action `delete`,
 * the error. Strings from the service (messages, ids, codes) are written as string cells, never as formulas.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DATA_SHEETS, getSheet } from '../workbook/registry.js';
import { writeFormatFile } from '../workbook/writer.js';
import type { ExtraColumn, SheetContent, WritableRow } from '../workbook/xlsx-layout.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../workbook/types.js';
import type { JobResultSummary, PlanHeader } from './types.js';
import { columnNumber } from '../workbook/cell-ref.js';
import type { RowMarks } from './row-marks.js';
import { plainValue, sameFile, sourceSheets } from './source-sheets.js';
import { SpillFile } from './spill.js';

/**
 * The failed-rows workbook of a job in which every row succeeded: the template's first sheet, empty. Strings
 * inline, as in a failed-rows workbook with rows: no table of the strings to render in one go at the end (this
 * one is made while the job runs).
 */
export async function writeEmptyFailedRowsWorkbook(outPath: string): Promise<void> {
  await writeFormatFile(outPath, [{ def: getSheet('supplier-companies'), rows: [] }], {
    instructionsFor: [],
    sharedStrings: false,
  });
}

export async function writeFailedRowsWorkbook(
  inputPath: string,
  plan: PlanHeader,
  result: JobResultSummary,
  outPath: string,
  marks: RowMarks,
): Promise<{ rows: number }> {
  if (sameFile(inputPath, outPath))
    throw new Error('The failed-rows workbook must be a new file: the input workbook is never changed.');
  // Nothing failed: the workbook is the empty template (below), so the input is not read at all.
  if (!marks.anyNotSucceeded) {
    await writeEmptyFailedRowsWorkbook(outPath);
    return { rows: 0 };
  }
  // The input is streamed; the failed rows' values (and the mapping sheets') go to a file per sheet on disk, which
  // the writer reads back in the format's sheet order: no row is held in memory (a job of 200,000 rows stays within bounded memory).
  const bySheetName = new Map<string, DataSheetName>();
  for (const name of DATA_SHEET_NAMES) {
    const sheetName = plan.sheetNames[name];
    if (sheetName) bySheetName.set(sheetName, name);
  }
  const spill = await mkdtemp(join(tmpdir(), 'sl-failed-rows-'));
  try {
    const picked = new Map<DataSheetName, string>();
    let count = 0;
    for await (const sheet of sourceSheets(inputPath, (n) => bySheetName.has(n))) {
      const name = bySheetName.get(sheet.name)!;
      const def = getSheet(name);
      const letters = plan.sheetColumns[name] ?? {};
      const fields = Object.keys(def.columns)
        .filter((f) => letters[f])
        .map((f) => [f, columnNumber(letters[f]!)] as const);
      const mapping = name === 'plants' || name === 'materials';
      const rows = marks.sheet(name);
      const file = join(spill, `${name}.jsonl`);
      // Written synchronously, a block at a time: waiting for other I/O between the rows of exceljs's streaming
      // reader loses the sheets after this one (seen with a write stream's 'drain').
      const out = new SpillFile(file);
      let wrote = false;
      try {
        for await (const row of sheet.rows()) {
          if (row.number <= 1) continue;
          const mark = rows.get(row.number);
          if (mapping ? !row.hasValues : !mark || mark.succeeded) continue;
          const values: WritableRow = {};
          for (const [field, c] of fields) {
            const v = plainValue(row.getCell(c).value);
            if (v !== null && v !== undefined && v !== '') values[field] = v;
          }
          if (mark) {
            values._err_code = mark.failedCode;
            values._message = mark.message;
            count++;
          }
          out.write(`${JSON.stringify(values)}\n`);
        }
      } finally {
        wrote = out.close();
      }
      if (wrote) picked.set(name, file);
    }
    const extras: ExtraColumn[] = [
      { key: '_err_code', header: '_err_code', width: 28 },
      { key: '_message', header: '_message', width: 60 },
    ];
    // Entries without a worksheet row (a mirrored sheet's deletes) get one after the sheet's own rows.
    const rowless = new Map<DataSheetName, WritableRow[]>();
    for (const r of marks.rowless ?? []) {
      let rows = rowless.get(r.sheet);
      if (!rows) rowless.set(r.sheet, (rows = []));
      rows.push(r.values);
      count++;
    }
    const contents: SheetContent[] = [];
    for (const name of DATA_SHEETS.map((d) => d.name as DataSheetName)) {
      const file = picked.get(name);
      const extra = rowless.get(name);
      const mapping = name === 'plants' || name === 'materials';
      if (file || extra)
        contents.push({ def: getSheet(name), rows: sheetRows(file, extra ?? []), extraColumns: mapping ? [] : extras });
    }
    // Mapping sheets alone are no failed rows: leave them out when nothing failed.
    const finalContents = count === 0 ? [] : contents;
    await writeFormatFile(
      outPath,
      finalContents.length ? finalContents : [{ def: getSheet('supplier-companies'), rows: [] }],
      {
        instructionsFor: finalContents.map((c) => c.def),
        sharedStrings: false,
      },
    );
    return { rows: count };
  } finally {
    await rm(spill, { recursive: true, force: true });
  }
}

/** A failed-rows sheet's rows: those put aside in its file (when any), then the rows of entries without one. */
async function* sheetRows(file: string | undefined, extra: readonly WritableRow[]): AsyncGenerator<WritableRow> {
  if (file) yield* spilledRows(file);
  yield* extra;
}

/** The rows a failed-rows workbook put aside in a file (one JSON object per line), read back one by one. */
async function* spilledRows(file: string): AsyncGenerator<WritableRow> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as WritableRow;
}
