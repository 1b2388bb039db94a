/**
 * writeWorkbook: rows in the template format (same headers, notes, dropdowns, frozen header), for exports,
 * failed-rows workbooks and reports. Server text is always written as a text cell: a value starting with
 * =, +, - or @ never becomes a formula.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { getAnySheet } from './registry.js';
import { writeFormatStream, type FormatStreamOptions } from './template.js';
import type { SheetName } from './types.js';
import type { ExtraColumn, SheetContent } from './xlsx-layout.js';
import { writeAtomic } from '../fs/atomic.js';

export type { ExtraColumn, WritableRow, WritableValue } from './xlsx-layout.js';

export interface WorkbookSheetData {
  sheet: SheetName;
  /** Rows by field name (the registry's columns); values of `extraColumns` by their key. */
  rows: SheetContent['rows'];
  /** Columns after the format's own, e.g. a hidden snapshot column. */
  extraColumns?: readonly ExtraColumn[];
}

export interface WriteWorkbookOptions {
  /** Add the Instructions sheet first (default true). */
  instructions?: boolean;
}

export async function writeWorkbook(
  sheets: readonly WorkbookSheetData[],
  path: string,
  options: WriteWorkbookOptions = {},
): Promise<void> {
  const contents = sheets.map((s) => ({ def: getAnySheet(s.sheet), rows: s.rows, extraColumns: s.extraColumns }));
  await writeFormatFile(path, contents, {
    instructionsFor:
      options.instructions === false ? undefined : contents.map((c) => c.def).filter((d) => !d.referenceOnly),
  });
}

/** Sheets of the format streamed into a file, written aside and renamed into place (never half a workbook). */
export async function writeFormatFile(
  path: string,
  contents: readonly SheetContent[],
  opts: FormatStreamOptions = {},
): Promise<void> {
  await writeAtomic(path, async (tmp) => {
    const out = createWriteStream(tmp);
    const closed = finished(out);
    await writeFormatStream(contents, out, opts);
    await closed;
  });
}
