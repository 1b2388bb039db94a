/**
 * Several sources feeding one target sheet (`MAT_2025-10.csv` and `MAT_2025-11.csv` both matching
 * `source: "MAT_*.csv"`): their rows are read into one sheet, so every check across rows (duplicate keys,
 * references) and the plan see them together. A row's number in the sheet is its identity in the plan and the
 * job (`supplier-products!7`), so the rows of the second source are numbered from PART_ROW_OFFSET on, those of
 * the third from twice that, and so on; `sourceRowOf` turns such a number back into the source's own address
 * (file and row), which is what every issue, dry-run row and results file shows.
 */
import type { ParsedSheet, SheetPart } from './types.js';

/** Row numbers of the n-th source of a sheet start at n × PART_ROW_OFFSET (above any sheet's last row). */
export const PART_ROW_OFFSET = 10_000_000;

/** The parts of a sheet: one (itself) unless several sources feed it. */
export function partsOf(sheet: ParsedSheet): SheetPart[] {
  return (
    sheet.parts ?? [
      {
        sheetName: sheet.sheetName,
        ...(sheet.source !== undefined && { source: sheet.source }),
        ...(sheet.csv && { csv: sheet.csv }),
        columns: sheet.columns,
        offset: 0,
      },
    ]
  );
}

/** The source (part) a row of the sheet came from, and its row there. */
export function sourceRowOf(sheet: ParsedSheet, row: number): { part: SheetPart; row: number } {
  if (!sheet.parts) return { part: partsOf(sheet)[0], row };
  const k = Math.floor(row / PART_ROW_OFFSET);
  const part = sheet.parts.find((p) => p.offset === k * PART_ROW_OFFSET) ?? sheet.parts[0];
  return { part, row: row - part.offset };
}

/** `{ sheet: 'MAT_2025-11.csv', cell: 'C7', row: 7 }` for a field of a sheet row (cell null without that column). */
export function sourceCellOf(
  sheet: ParsedSheet,
  field: string | null,
  row: number,
): { sheet: string; cell: string | null; row: number } {
  const at = sourceRowOf(sheet, row);
  const letter = field ? at.part.columns[field] : undefined;
  return { sheet: at.part.sheetName, cell: letter ? `${letter}${at.row}` : null, row: at.row };
}

/** Row numbers of several parts as `offset → source name`, for a plan to decode its entries' rows. */
export function plannedParts(sheet: ParsedSheet): { sheetName: string; offset: number }[] | undefined {
  return sheet.parts?.map((p) => ({ sheetName: p.sheetName, offset: p.offset }));
}

/** Decode a row number with a plan's parts of that sheet (see plannedParts). */
export function decodeRow(
  parts: readonly { sheetName: string; offset: number }[] | undefined,
  fallbackName: string,
  row: number,
): { sheetName: string; row: number } {
  if (!parts?.length) return { sheetName: fallbackName, row };
  const off = Math.floor(row / PART_ROW_OFFSET) * PART_ROW_OFFSET;
  const p = parts.find((x) => x.offset === off);
  return p ? { sheetName: p.sheetName, row: row - p.offset } : { sheetName: fallbackName, row };
}
