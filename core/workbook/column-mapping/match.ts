/** Which target sheet a source (a workbook's sheet, a CSV file) feeds, by the column mapping or by its name. */
import { basename, extname } from 'node:path';
import { DATA_SHEETS, isDataSheetName, normaliseSheetName } from '../registry.js';
import type { DataSheetName } from '../types.js';
import type { ColumnMapping, SheetMapping } from './schema.js';

/** A file-name glob (`MAT_*.csv`, `?` one character) as a case-insensitive RegExp of the whole name. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

export interface SourceTarget {
  sheet: DataSheetName;
  mapping?: SheetMapping;
  /** `mapping`: named by the mapping's `source`; `name`: the source is named after the sheet. */
  by: 'mapping' | 'name';
  normalised: boolean;
}

/**
 * The target sheet of a source named `name` (a sheet name, or a CSV file's name): a mapping entry whose
 * `source` matches it (exactly or as a glob), else a data sheet of that name (a CSV's name without extension),
 * leniently. A mapping entry without `source` applies to the source named like its target sheet.
 */
export function targetOf(name: string, mapping: ColumnMapping | undefined, isFile: boolean): SourceTarget | null {
  const entries = Object.entries(mapping?.sheets ?? {}) as [DataSheetName, SheetMapping][];
  for (const [sheet, sm] of entries)
    if (sm.source !== undefined && (sm.source === name || globToRegExp(sm.source).test(name)))
      return { sheet, mapping: sm, by: 'mapping', normalised: false };
  const bare = isFile ? basename(name, extname(name)) : name;
  let sheet: DataSheetName | undefined;
  let normalised = false;
  if (isDataSheetName(bare)) sheet = bare;
  else {
    const n = normaliseSheetName(bare);
    const def = DATA_SHEETS.find((d) => d.name === n);
    if (def) {
      sheet = def.name as DataSheetName;
      normalised = true;
    }
  }
  if (!sheet) return null;
  const sm = mapping?.sheets[sheet];
  // A mapping entry with its own `source` names another source: this one is not mapped.
  return { sheet, ...(sm && sm.source === undefined && { mapping: sm }), by: 'name', normalised };
}
