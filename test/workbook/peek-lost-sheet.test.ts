/**
 * `mapping suggest` peeks every sheet of a workbook. exceljs's streaming reader can end early without an error
 * (exceljs/exceljs#2790; a two-sheet test of peekSource flaked once under CI load, likely so): a sheet not reached is
 * read again once, and if it still is not there it is named in an error — never a silently shorter list.
 * The loss is made here by a reader that stops after the first sheet.
 */
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir('sl-peek-lost-');
const Real = ExcelJS.stream.xlsx.WorkbookReader;

/** Readers made from now on: the first `losing` of them end after their first worksheet. */
function losing(losing: number): void {
  let made = 0;
  vi.spyOn(ExcelJS.stream.xlsx, 'WorkbookReader').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const reader = new (Real as unknown as new (...a: unknown[]) => AsyncIterable<unknown>)(...args);
    if (made++ >= losing) return reader;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const ws of reader) {
          yield ws;
          return; // as exceljs does when it ends early: no error, no more sheets
        }
      },
    };
  } as unknown as typeof Real);
}

afterEach(() => vi.restoreAllMocks());

async function twoSheets(): Promise<string> {
  const path = tmp.file(`two-${Math.random().toString(36).slice(2)}.xlsx`);
  await writeXlsx(path, {
    Kreditoren: [
      ['Kreditorennummer', 'Firmenname'],
      ['70001', 'Müller GmbH'],
    ],
    Notizen: [['irgendwas']],
  });
  return path;
}

describe('peekSource when exceljs ends early', () => {
  it('a sheet lost once is read again: both sheets, as without the loss', async () => {
    const path = await twoSheets();
    const whole = await peekSource(path);
    losing(1);
    const again = await peekSource(path);
    expect(again).toEqual(whole);
    expect(again.map((s) => s.name)).toEqual(['Kreditoren', 'Notizen']);
  });

  it('a sheet lost every time is named in an error', async () => {
    const path = await twoSheets();
    losing(Infinity);
    await expect(peekSource(path)).rejects.toThrow(
      /the sheet "Notizen" could not be read \(the reader ended before it\); try again/,
    );
  });
});
