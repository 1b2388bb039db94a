/**
 * Duplicate keys in a sheet: a second row with the same values of the sheet's `key` fields is an error. Work
 * for a Slicer: it may pause at each row.
 */
import { STEP_ROWS } from '../throttle.js';
import { show } from './coerce.js';
import type { SheetDef } from './sheet-def.js';
import { sourceRowOf } from './sheet-parts.js';
import type { ParsedRow, ParsedSheet } from './types.js';
import { rowActionOf } from './validate-row.js';
import type { ValidationContext } from './validation-context.js';

function keyLabel(def: SheetDef, values: readonly unknown[]): string {
  const key = def.key ?? [];
  return key.length === 1 ? `${key[0]} ${show(values[0])}` : key.map((k, i) => `${k} ${show(values[i])}`).join(', ');
}

export function* checkDuplicateKeys(ctx: ValidationContext, def: SheetDef, sheet: ParsedSheet): Generator<void> {
  let step = 0;
  const key = def.key;
  if (!key?.length) return;
  // First row per key; a list only once a key repeats (most keys do not).
  const groups = new Map<string, ParsedRow | ParsedRow[]>();
  const single = key.length === 1 ? key[0] : null;
  for (const row of sheet.rows) {
    if (++step % STEP_ROWS === 0) yield;
    if (rowActionOf(row) === 'ignore') continue;
    let k: string;
    if (single !== null) {
      const v = row.values[single];
      if (v === undefined || v === null) continue;
      k = String(v);
    } else {
      const parts = key.map((f) => row.values[f]);
      if (parts.some((p) => p === undefined || p === null)) continue;
      k = parts.join('\u0000');
    }
    const g = groups.get(k);
    if (g === undefined) groups.set(k, row);
    else if (Array.isArray(g)) g.push(row);
    else groups.set(k, [g, row]);
  }
  for (const rows of groups.values()) {
    if (++step % STEP_ROWS === 0) yield;
    if (!Array.isArray(rows)) continue;
    const label = keyLabel(
      def,
      key.map((k) => rows[0].values[k]),
    );
    // Rows of one source by number; of several sources with their file (`MAT_2025-10.csv!3, MAT_2025-11.csv!3`).
    const where = rows
      .map((r) => {
        const at = sourceRowOf(sheet, r.row);
        return sheet.parts ? `${at.part.sheetName}!${at.row}` : String(at.row);
      })
      .join(', ');
    for (const r of rows)
      ctx.error(
        sheet,
        r.row,
        key[0],
        'duplicate_key',
        `${label} appears ${rows.length} times in ${def.name} (rows ${where}); each must be unique`,
        {
          key: label,
          count: rows.length,
          sheetName: def.name,
          rows: where,
        },
      );
  }
}
