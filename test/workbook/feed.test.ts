/**
 * The worksheet scanner of the feed: merged ranges, formula error texts and date/percent cells, across chunk
 * boundaries; and where a worksheet is cut after its first rows (ElementCap), in chunks of every size.
 */
import { describe, expect, it } from 'vitest';
import { ElementCap, SheetScanner } from '../../core/workbook/feed.js';
import type { StyleKind } from '../../core/workbook/number-formats.js';

const xml =
  '<worksheet><sheetData>' +
  '<row r="1" s="3"><c r="A1" t="s"><v>0</v></c><c r="B1" s="3"><v>45292</v></c></row>' +
  '<row r="2"><c r="A2" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="B2" s="7" t="n"><v>0.3</v></c><c r="C2" t="inlineStr"><is><t>text with s="3" and t="e" in it</t></is></c></row>' +
  '<row r="3"><c r="A3" t="e"/><c r="B3" t="e"><v>#N/A</v></c><c r="C3"><f t="shared" si="0"/><v>4</v></c></row>' +
  '</sheetData><mergeCells count="2"><mergeCell ref="A5:A7"/><mergeCell ref="B2:C3"/></mergeCells></worksheet>';

function scan(chunkSize: number) {
  const merges: string[] = [];
  const errors = new Map<string, string>();
  const styled = new Map<string, StyleKind>();
  const s = new SheetScanner(merges, errors, styled, [
    { pattern: Buffer.from(' s="3"'), kind: 'date' },
    { pattern: Buffer.from(' s="7"'), kind: 'percent' },
  ]);
  const buf = Buffer.from(xml);
  for (let i = 0; i < buf.length; i += chunkSize) s.push(Buffer.from(buf.subarray(i, i + chunkSize)));
  return { merges, errors: Object.fromEntries(errors), styled: Object.fromEntries(styled) };
}

describe('SheetScanner', () => {
  const expected = {
    merges: ['A5:A7', 'B2:C3'],
    errors: { A2: '#DIV/0!', B3: '#N/A' },
    styled: { B1: 'date', B2: 'percent' },
  };
  it('finds everything in one chunk, and ignores look-alikes in text and row styles', () => {
    expect(scan(xml.length)).toEqual(expected);
  });
  for (const size of [70, 71, 83, 97, 128, 200, 333])
    it(`finds the same when the XML arrives in ${size}-byte chunks`, () => {
      const got = scan(size);
      expect(got.merges.sort()).toEqual(expected.merges);
      expect(got.errors).toEqual(expected.errors);
      expect(got.styled).toEqual(expected.styled);
    });
});

describe('ElementCap', () => {
  /** What is kept of `xml` handed over in chunks of `size` bytes, capped after `max` rows. */
  function kept(max: number, size: number): string {
    const cap = new ElementCap(Buffer.from('</row>'), max);
    const buf = Buffer.from(xml);
    const out: Buffer[] = [];
    for (let i = 0; i < buf.length && !cap.done; i += size) {
      const chunk = buf.subarray(i, i + size);
      out.push(chunk.subarray(0, cap.keep(chunk)));
    }
    return Buffer.concat(out).toString();
  }

  it('cuts at the end of the max-th row, a `</row>` split by a chunk boundary included', () => {
    const two = xml.slice(0, xml.indexOf('<row r="3"'));
    for (let size = 1; size <= xml.length; size++) {
      expect(kept(2, size)).toBe(two);
      expect(kept(1, size)).toBe(xml.slice(0, xml.indexOf('<row r="2"')));
    }
  });

  it('keeps everything when the sheet has no more rows than the cap', () => {
    for (const size of [1, 5, 7, 64, xml.length]) expect(kept(3, size)).toBe(xml.slice(0, xml.indexOf('</sheetData>')));
    for (const size of [1, 6, xml.length]) expect(kept(4, size)).toBe(xml);
  });
});
