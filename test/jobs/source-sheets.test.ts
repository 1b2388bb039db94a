/**
 * exceljs's streaming reader can end early, without an error, when its consumer waits for other I/O between
 * rows (likely exceljs/exceljs#2790): the sheets after the current one would be lost. The results writers'
 * reader (sourceSheets) checks that every sheet it was to read arrived, and throws when one did not.
 */
import { createWriteStream, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceSheets } from '../../core/jobs/source-sheets.js';
import { buildDataset } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';

async function workbook(): Promise<{ file: string; sheets: string[] }> {
  const data = buildDataset({ companies: 20, products: 3000, silos: 4, instances: 4, prechain: 2 }, 'SRC');
  const file = join(mkdtempSync(join(tmpdir(), 'sl-src-')), 'in.xlsx');
  await writeDataWorkbook(file, data);
  return { file, sheets: Object.keys(data) };
}

describe('sourceSheets', () => {
  it('reads every sheet, in order, with every row', async () => {
    const { file, sheets } = await workbook();
    const seen: string[] = [];
    let rows = 0;
    for await (const sheet of sourceSheets(file, () => true)) {
      seen.push(sheet.name);
      for await (const row of sheet.rows()) if (row.number > 1) rows++;
    }
    expect(seen).toEqual(sheets);
    expect(rows).toBeGreaterThan(3000);
  }, 60_000);

  it('a consumer that waits for other I/O between rows gets every sheet, or an error: never fewer sheets in silence', async () => {
    const { file, sheets } = await workbook();
    const seen: string[] = [];
    let rows = 0;
    let error: unknown = null;
    const out = createWriteStream(join(mkdtempSync(join(tmpdir(), 'sl-src-out-')), 'spill.jsonl'));
    try {
      for await (const sheet of sourceSheets(file, () => true)) {
        seen.push(sheet.name);
        for await (const _row of sheet.rows()) {
          rows++;
          if (!out.write(`${JSON.stringify({ n: rows, pad: 'x'.repeat(200) })}\n`)) await once(out, 'drain');
        }
      }
    } catch (e) {
      error = e;
    }
    // (whichever way exceljs goes: today it loses the sheets after the fourth)
    if (error === null) expect(seen).toEqual(sheets);
    else {
      expect(seen.length).toBeLessThan(sheets.length);
      expect(String(error)).toMatch(
        new RegExp(`could not be read whole: its sheet "${sheets[seen.length]}" was never reached`),
      );
    }
  }, 60_000);
});
