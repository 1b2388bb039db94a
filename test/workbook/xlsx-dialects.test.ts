/**
 * Valid workbooks written by other tools than Excel, which Excel and LibreOffice open: each built here part by
 * part and read through readWorkbook (header, values, row count).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import type { ParsedWorkbook } from '../../core/workbook/types.js';
import { tempDir, writeZip, type RawEntry } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

interface Package {
  /** Zip path of the workbook part. */
  workbook?: string;
  /** Element prefix of the SpreadsheetML namespace ('' for the default namespace). */
  prefix?: string;
  /** Prefix of the relationships namespace in the workbook part. */
  relPrefix?: string;
  /** The worksheet's `<sheetData>` content, written with `p` as element prefix. */
  rows: string;
  /** `<si>` items of the shared strings part (none: no part). */
  strings?: string[];
  /** Extra worksheet content after `<sheetData>` (merged cells). */
  after?: string;
  dimension?: string;
  /** The sheet's name as written in the workbook part (default supplier-companies). */
  sheetName?: string;
}

/** An .xlsx package written by hand, its workbook part wherever `workbook` says. */
async function writePackage(name: string, o: Package): Promise<string> {
  const p = o.prefix ? `${o.prefix}:` : '';
  const ns = o.prefix ? `xmlns:${o.prefix}="${MAIN}"` : `xmlns="${MAIN}"`;
  const r = o.relPrefix ?? 'r';
  const wb = o.workbook ?? 'xl/workbook.xml';
  const dir = wb.includes('/') ? wb.slice(0, wb.lastIndexOf('/') + 1) : '';
  const rels = `${dir}_rels/${wb.slice(dir.length)}.rels`;
  const sheetPath = `${dir}worksheets/sheet1.xml`;
  const entries: RawEntry[] = [
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${wb}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/${sheetPath}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `${XML}<Relationships xmlns="${PKG}"><Relationship Id="R1" Type="${REL}/officeDocument" Target="/${wb}"/></Relationships>`,
      ),
    },
    {
      name: wb,
      data: Buffer.from(
        `${XML}<${p}workbook ${ns} xmlns:${r}="${REL}"><${p}sheets><${p}sheet name="${o.sheetName ?? 'supplier-companies'}" sheetId="1" ${r}:id="R7"/></${p}sheets></${p}workbook>`,
      ),
    },
    {
      name: rels,
      data: Buffer.from(
        `${XML}<Relationships xmlns="${PKG}"><Relationship Id="R7" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${o.strings ? `<Relationship Id="R8" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
      ),
    },
    {
      name: sheetPath,
      data: Buffer.from(
        `${XML}<${p}worksheet ${ns}>${o.dimension ? `<${p}dimension ref="${o.dimension}"/>` : ''}<${p}sheetData>${o.rows}</${p}sheetData>${o.after ?? ''}</${p}worksheet>`,
      ),
    },
  ];
  if (o.strings)
    entries.push({
      name: `${dir}sharedStrings.xml`,
      data: Buffer.from(
        `${XML}<${p}sst ${ns} count="${o.strings.length}" uniqueCount="${o.strings.length}">${o.strings.join('')}</${p}sst>`,
      ),
    });
  const path = tmp.file(name);
  await writeZip(path, entries);
  return path;
}

/** A row of inline strings, `p` the element prefix. */
function inlineRow(row: number, cells: string[], p = ''): string {
  const c = cells
    .map(
      (v, i) =>
        `<${p}c r="${String.fromCharCode(65 + i)}${row}" t="inlineStr"><${p}is><${p}t>${v}</${p}t></${p}is></${p}c>`,
    )
    .join('');
  return `<${p}row r="${row}">${c}</${p}row>`;
}

const HEADER = ['external_id', 'name', 'country'];

function sheetOf(p: ParsedWorkbook) {
  expect(p.issues.filter((i) => i.severity === 'error')).toEqual([]);
  expect(p.readable).toBe(true);
  const s = p.sheets.find((x) => x.name === 'supplier-companies');
  expect(s).toBeDefined();
  expect(Object.keys(s!.columns)).toEqual(HEADER);
  return s!;
}

describe('namespace prefixes (the .NET OpenXML SDK)', () => {
  it('prefixed elements, a relationship id under another prefix and prefixed rich-text runs read', async () => {
    const x = 'x:';
    const path = await writePackage('prefixed.xlsx', {
      prefix: 'x',
      relPrefix: 'rel',
      strings: [
        ...HEADER.map((h) => `<x:si><x:t>${h}</x:t></x:si>`),
        '<x:si><x:r><x:t xml:space="preserve">Müller </x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t>GmbH</x:t></x:r></x:si>',
      ],
      rows:
        `<x:row r="1">${HEADER.map((_, i) => `<x:c r="${'ABC'[i]}1" t="s"><x:v>${i}</x:v></x:c>`).join('')}</x:row>` +
        `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>SUP-1</x:t></x:is></x:c><x:c r="B2" t="s"><x:v>3</x:v></x:c>` +
        `<x:c r="C2" t="inlineStr"><x:is><x:r><x:t>D</x:t></x:r><x:r><x:t>E</x:t></x:r></x:is></x:c></x:row>` +
        inlineRow(3, ['SUP-2', 'Hofer AG', 'AT'], x),
    });
    const s = sheetOf(await readWorkbook(path));
    expect(s.rows).toEqual([
      { row: 2, values: { external_id: 'SUP-1', name: 'Müller GmbH', country: 'DE' } },
      { row: 3, values: { external_id: 'SUP-2', name: 'Hofer AG', country: 'AT' } },
    ]);
  });

  it('a merged range in a prefixed worksheet is still seen', async () => {
    const path = await writePackage('prefixed-merge.xlsx', {
      prefix: 'x',
      rows:
        inlineRow(1, HEADER, 'x:') + inlineRow(2, ['SUP-1', 'A', 'DE'], 'x:') + inlineRow(3, ['SUP-2', '', 'DE'], 'x:'),
      after: '<x:mergeCells count="1"><x:mergeCell ref="B2:B3"/></x:mergeCells>',
    });
    const p = await readWorkbook(path);
    expect(p.issues.filter((i) => i.code === 'merged_cell').map((i) => i.cell)).toEqual(['B2']);
  });
});

describe('the workbook part where the package relationships say', () => {
  for (const wb of ['xl/workbook2.xml', 'workbook.xml']) {
    it(`reads a workbook whose workbook part is ${wb}`, async () => {
      const path = await writePackage(`${wb.replace(/\W/g, '-')}.xlsx`, {
        workbook: wb,
        strings: HEADER.map((h) => `<si><t>${h}</t></si>`),
        rows:
          `<row r="1">${HEADER.map((_, i) => `<c r="${'ABC'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>` +
          inlineRow(2, ['SUP-1', 'Müller GmbH', 'DE']),
      });
      const s = sheetOf(await readWorkbook(path));
      expect(s.rows).toEqual([{ row: 2, values: { external_id: 'SUP-1', name: 'Müller GmbH', country: 'DE' } }]);
    });
  }
});

describe('text as Excel reads it', () => {
  it('a phonetic reading is not part of the text; _xHHHH_ escapes are decoded', async () => {
    const path = await writePackage('text.xlsx', {
      strings: [
        ...HEADER.map((h) => `<si><t>${h}</t></si>`),
        '<si><t>東京商事</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>',
        '<si><t>Line_x000D_Two</t></si>',
        '<si><t>A_x005F_x000D_B</t></si>',
      ],
      rows:
        `<row r="1">${HEADER.map((_, i) => `<c r="${'ABC'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>` +
        `<row r="2"><c r="A2" t="inlineStr"><is><t>SUP-1</t></is></c><c r="B2" t="s"><v>3</v></c><c r="C2" t="inlineStr"><is><t>JP</t></is></c></row>` +
        `<row r="3"><c r="A3" t="inlineStr"><is><t>SUP-2</t></is></c><c r="B3" t="s"><v>4</v></c><c r="C3" t="inlineStr"><is><t>DE</t></is></c></row>` +
        `<row r="4"><c r="A4" t="inlineStr"><is><t>SUP-3</t></is></c><c r="B4" t="s"><v>5</v></c><c r="C4" t="inlineStr"><is><t>DE</t></is></c></row>`,
    });
    const s = sheetOf(await readWorkbook(path));
    expect(s.rows.map((r) => r.values.name)).toEqual(['東京商事', 'Line\rTwo', 'A_x000D_B']);
  });

  it('_xHHHH_ escapes are decoded once in inline strings, headers and sheet names too', async () => {
    const path = await writePackage('escapes.xlsx', {
      sheetName: 'supplier_x002D_companies',
      strings: ['<si><t>external_x005F_id</t></si>'],
      rows:
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>na_x006D_e</t></is></c>` +
        `<c r="C1" t="inlineStr"><is><t>country</t></is></c></row>` +
        inlineRow(2, ['SUP-1', 'A_x005F_x000D_B', 'DE']) +
        inlineRow(3, ['SUP-2', 'Line_x000D_Two', 'DE']) +
        `<row r="4"><c r="A4" t="inlineStr"><is><t>SUP-3</t></is></c><c r="B4" t="str"><f>"x"</f><v>Tab_x0009_bed</v></c>` +
        `<c r="C4" t="inlineStr"><is><t>DE</t></is></c></row>`,
    });
    const p = await readWorkbook(path);
    const s = sheetOf(p);
    expect(s.sheetName).toBe('supplier-companies');
    expect(s.rows.map((r) => r.values.name)).toEqual(['A_x000D_B', 'Line\rTwo', 'Tab\tbed']);
    expect(p.issues.filter((i) => i.code === 'sheet_name_normalised')).toEqual([]);
  });

  it('entities are decoded once, CDATA and phonetic runs of inline strings read as Excel reads them', async () => {
    const path = await writePackage('inline.xlsx', {
      rows:
        inlineRow(1, HEADER) +
        inlineRow(2, ['SUP-1', 'Smith &amp;amp; Sons', 'DE']) +
        inlineRow(3, ['SUP-2', '<![CDATA[Müller & <Co>]]>', 'DE']) +
        `<row r="4"><c r="A4" t="inlineStr"><is><t>SUP-3</t></is></c><c r="B4" t="inlineStr"><is><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></is></c><c r="C4" t="inlineStr"><is><t>JP</t></is></c></row>`,
    });
    const s = sheetOf(await readWorkbook(path));
    expect(s.rows.map((r) => r.values.name)).toEqual(['Smith &amp; Sons', 'Müller & <Co>', '東京']);
  });
});

describe('cells and line ends as other writers leave them', () => {
  it('rows and cells without an r attribute are read in their places', async () => {
    const cells = (vs: string[]) => vs.map((v) => `<c t="inlineStr"><is><t>${v}</t></is></c>`).join('');
    const path = await writePackage('no-refs.xlsx', {
      rows:
        `<row>${cells(HEADER)}</row><row>${cells(['SUP-1', 'Müller GmbH', 'DE'])}</row>` +
        `<row r="4"><c r="B4" t="inlineStr"><is><t>Hofer AG</t></is></c>${cells(['AT'])}</row>`,
    });
    const p = await readWorkbook(path);
    expect(p.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const s = p.sheets[0];
    expect(s.rows.map((r) => [r.row, r.values])).toEqual([
      [2, { external_id: 'SUP-1', name: 'Müller GmbH', country: 'DE' }],
      [4, { name: 'Hofer AG', country: 'AT' }],
    ]);
  });

  it('CR LF written in a part the reader rewrites is one line break, and does not break the part', async () => {
    const path = await writePackage('crlf.xlsx', {
      strings: [
        ...HEADER.map((h) => `<si><t>${h}</t></si>`),
        '<si><t><![CDATA[Werk\r\nSüd]]></t></si>',
        '<si><t>A_x000D_\r\nB</t></si>',
      ],
      rows:
        `\r\n<row r="1">${HEADER.map((_, i) => `<c r="${'ABC'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>\r\n` +
        `<row r="2"><c r="A2" t="inlineStr"><is><t>SUP-1</t></is></c><c r="B2" t="s"><v>3</v></c><c r="C2" t="inlineStr"><is><t>DE</t></is></c></row>\r\n` +
        `<row r="3"><c r="A3" t="inlineStr"><is><t>SUP-2</t></is></c><c r="B3" t="s"><v>4</v></c><c r="C3" t="inlineStr"><is><t>DE</t></is></c></row>\r\n`,
    });
    const p = await readWorkbook(path);
    expect(p.issues.filter((i) => i.severity === 'error' && i.code !== 'control_characters')).toEqual([]);
    expect(p.sheets[0].rows.map((r) => r.values.name)).toEqual(['Werk\nSüd', 'A\r\nB']);
  });
});

describe('a column mapping header_row', () => {
  it('a merged title above the header row is not data', async () => {
    const path = await writePackage('title.xlsx', {
      rows: inlineRow(1, ['Supplier list 2025']) + inlineRow(2, HEADER) + inlineRow(3, ['SUP-1', 'Müller GmbH', 'DE']),
      after: '<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells>',
    });
    const p = await readWorkbook(path, {
      mapping: { version: 1, sheets: { 'supplier-companies': { header_row: 2 } } },
    });
    const s = sheetOf(p);
    expect(s.rows).toEqual([{ row: 3, values: { external_id: 'SUP-1', name: 'Müller GmbH', country: 'DE' } }]);
  });
});

describe('the row limit', () => {
  it('counts rows that hold data, not a dimension reaching row 1,048,576 with empty styled rows', async () => {
    const path = await writePackage('gnumeric.xlsx', {
      dimension: 'A1:C1048576',
      rows:
        inlineRow(1, HEADER) +
        inlineRow(2, ['SUP-1', 'Müller GmbH', 'DE']) +
        '<row r="1048575" s="1" customFormat="1"><c r="A1048575" s="1"/></row><row r="1048576" s="1" customFormat="1"><c r="A1048576" s="1"/></row>',
    });
    const s = sheetOf(await readWorkbook(path));
    expect(s.rows).toEqual([{ row: 2, values: { external_id: 'SUP-1', name: 'Müller GmbH', country: 'DE' } }]);
  });
});
