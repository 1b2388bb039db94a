/** The names of the results workbooks of a workbook among mixed sources: the source's extension is dropped. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workbookResultFiles } from '../../core/app/import-results.js';
import { sourceBaseName } from '../../core/workbook/sources/index.js';

describe('results workbook names of mixed sources', () => {
  it.each([
    ['suppliers.xlsx', 'suppliers'],
    ['Lieferanten.XLS', 'Lieferanten'],
    ['plants.xlsm', 'plants'],
    ['bom.ods', 'bom'],
    ['export.v2.xls', 'export.v2'],
  ])('%s → %s.results.xlsx and %s.failed.xlsx', (file, base) => {
    expect(workbookResultFiles(path.join('in', file), { report: 'rep', failed: 'fail' })).toEqual({
      report: path.join('rep', `${base}.results.xlsx`),
      failed: path.join('fail', `${base}.failed.xlsx`),
    });
  });

  it('only the folders asked for', () => {
    expect(workbookResultFiles('X.xls', { failed: 'f' })).toEqual({ failed: path.join('f', 'X.failed.xlsx') });
    expect(workbookResultFiles('X.xls', {})).toEqual({});
  });

  it('an extension the import does not read is part of the name', () => {
    expect(sourceBaseName('/a/data.backup')).toBe('data.backup');
    expect(sourceBaseName('/a/.xlsx')).toBe('.xlsx');
    expect(sourceBaseName('/a/MAT.csv')).toBe('MAT');
  });
});
