/**
 * Write exported rows as a workbook in the template format (same sheets, columns, notes, dropdowns) with the
 * format's writeWorkbook, adding the hidden `_snapshot` column to the sheets whose rows carry one. Server text is always
 * written as text cells, never as formulas (the format writer sets string values only).
 */
import { stat } from 'node:fs/promises';
import { SNAPSHOT_COLUMN } from '../jobs/snapshot.js';
import { writeWorkbook, type WorkbookSheetData, type WritableRow } from '../workbook/writer.js';
import type { ExportData } from './collect.js';
import { writeAtomic } from '../fs/atomic.js';

/** What the `_snapshot` column is, on its header cell (the column is hidden; this is for whoever unhides it). */
const SNAPSHOT_NOTE = [
  `${SNAPSHOT_COLUMN} (written by the export; do not edit)`,
  'A fingerprint of this row as it was on the service when it was exported.',
  'On import, a row whose entity was changed on the service since then is held back as a conflict, so nothing you did not see is overwritten.',
  'Clear the cell to import the row over the current data anyway.',
].join('\n');

const SNAPSHOT_EXTRA = [
  { key: SNAPSHOT_COLUMN, header: SNAPSHOT_COLUMN, width: 30, hidden: true, note: SNAPSHOT_NOTE },
] as const;

export function exportSheets(data: ExportData): WorkbookSheetData[] {
  return data.sheets.map((s) => ({
    sheet: s.name,
    rows: s.rows as readonly WritableRow[],
    ...(s.rows.some((r) => r[SNAPSHOT_COLUMN] !== undefined) ? { extraColumns: SNAPSHOT_EXTRA } : {}),
  }));
}

/** Write the export to `file` (atomically: a temporary file renamed into place). Returns the bytes written. */
export async function writeExportWorkbook(data: ExportData, file: string): Promise<number> {
  return writeAtomic(file, async (tmp) => {
    await writeWorkbook(exportSheets(data), tmp);
    return (await stat(tmp)).size;
  });
}
