/**
 * The worksheet / shared strings normaliser hands on what it can as soon as it can: the result must not depend on
 * where the zip stream cuts its chunks (inside a tag, a multi-byte character, a CDATA section or an entity).
 */
import { describe, expect, it } from 'vitest';
import { XmlNormaliser, type PartKind } from '../../core/workbook/xml-normalise.js';

function normalise(kind: PartKind, chunks: Buffer[]): string {
  const n = new XmlNormaliser(kind);
  const out = chunks.map((c) => n.push(c));
  out.push(n.end());
  return Buffer.concat(out).toString('utf8');
}

const SHEET = Buffer.from(
  '<?xml version="1.0"?><x:worksheet xmlns:x="urn:x"><x:sheetData>' +
    '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:r><x:t>Kies &amp; Sand</x:t></x:r><x:r><x:t>ü 0/2</x:t></x:r></x:is></x:c>' +
    '<x:c r="B1" t="inlineStr"><x:is><x:t><![CDATA[a<b & “c”]]></x:t></x:is></x:c></x:row>' +
    '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>12.5</v></c></row>' +
    '</x:sheetData></x:worksheet>',
  'utf8',
);
const STRINGS = Buffer.from(
  '<sst><si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si><si><t>Zementwerk Süd</t></si>' +
    '<si><t><![CDATA[x & y]]></t></si></sst>',
  'utf8',
);

describe('XmlNormaliser', () => {
  it.each([
    ['worksheet', SHEET],
    ['sharedStrings', STRINGS],
  ] as const)(
    '%s: the same result wherever the stream is cut (every byte offset, two and three chunks)',
    (kind, xml) => {
      const whole = normalise(kind, [xml]);
      expect(whole).not.toContain('x:');
      expect(whole).not.toContain('CDATA');
      expect(whole).not.toContain('トウキョウ');
      for (let i = 1; i < xml.length; i++) {
        expect(normalise(kind, [xml.subarray(0, i), xml.subarray(i)]), `cut at ${i}`).toBe(whole);
        const j = Math.min(xml.length - 1, i + 7);
        if (j > i)
          expect(normalise(kind, [xml.subarray(0, i), xml.subarray(i, j), xml.subarray(j)]), `cut at ${i}, ${j}`).toBe(
            whole,
          );
      }
    },
  );

  it('a part with nothing to rewrite is handed on byte for byte', () => {
    const plain = Buffer.from('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>');
    expect(normalise('worksheet', [plain.subarray(0, 30), plain.subarray(30)])).toBe(plain.toString('utf8'));
  });
});

describe('XmlNormaliser: what the parser behind it needs', () => {
  it('CR LF line ends in a rewritten part are one LF (XML end-of-line handling); a CR reference stays a CR', () => {
    const xml = Buffer.from(
      '<?xml version="1.0"?>\r\n<x:sst xmlns:x="urn:x"><x:si><x:t>a\r\nb&#13;c</x:t></x:si></x:sst>\r\n',
      'utf8',
    );
    expect(normalise('sharedStrings', [xml])).toBe(
      '<?xml version="1.0"?>\n<sst xmlns:x="urn:x"><si><t>a\nb&#13;c</t></si></sst>\n',
    );
  });

  it('cells and rows without a reference are given theirs (after the previous one), from the first cell on', () => {
    const xml = Buffer.from(
      '<worksheet><sheetData><row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row>' +
        '<row r="5"><c><v>2</v></c><c r="D5"><v>3</v></c><c><v>4</v></c></row><row><c><v>5</v></c></row></sheetData></worksheet>',
    );
    const out = normalise('worksheet', [xml.subarray(0, 40), xml.subarray(40)]);
    expect([...out.matchAll(/<(row|c) r="(\w+)"/g)].map((m) => m[2])).toEqual([
      '1',
      'A1',
      'B1',
      '5',
      'A5',
      'D5',
      'E5',
      '6',
      'A6',
    ]);
  });

  it('tells whether the part ended with its root element (not cut off)', () => {
    const whole = Buffer.from('<?xml version="1.0"?>\r\n<sst><si><t>a</t></si></sst>\r\n');
    for (const [xml, complete] of [
      [whole, true],
      [Buffer.from('<sst count="0"/>'), true],
      [whole.subarray(0, whole.length - 8), false],
      [Buffer.from('<sst><si><t>a</t></si>'), false],
    ] as const) {
      const n = new XmlNormaliser('sharedStrings');
      n.push(xml);
      n.end();
      expect(n.complete, xml.toString()).toBe(complete);
    }
  });
});
