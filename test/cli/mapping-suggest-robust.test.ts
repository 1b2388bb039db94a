/**
 * `mapping suggest` on broken and unusual inputs: every refusal names its file and none shows a library's own
 * words (a zip or XML parser message, "Cannot read properties of undefined", a stack); an empty file is told as
 * `validate` tells it; SIGTERM stops the real process between sources with exit 3 and no draft written.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, spawnCli, tmpDir } from './helpers.js';

const dir = tmpDir('sl-suggest-robust-');
const header = ['external_id', 'name', 'plant_code', 'material_code', 'unit'];
let good: Buffer;

beforeAll(async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('supplier-products');
  ws.addRow(header);
  for (let i = 0; i < 20; i++) ws.addRow([`SP-${i}`, `Sand ${i}`, 'PL-MUC', 'MAT-SAND', 'KG']);
  good = Buffer.from(await wb.xlsx.writeBuffer());
});

const write = (name: string, data: string | Buffer) => {
  fs.writeFileSync(path.join(dir, name), data);
  return name;
};

/** Library and runtime texts a user must never see. */
const INTERNAL =
  /Cannot read propert|undefined|unmatched closing tag|central directory|Unexpected error|\bat .+:\d+:\d+|sax|Error:/i;

describe('every message names its file, none is internal', () => {
  const cases: [string, () => Promise<string>][] = [
    ['a truncated .xlsx', async () => write('truncated.xlsx', good.subarray(0, Math.floor(good.length / 2)))],
    [
      'a zip that is not a workbook',
      async () => {
        const z = new JSZip();
        z.file('hello.txt', 'hi');
        return write('notwb.xlsx', await z.generateAsync({ type: 'nodebuffer' }));
      },
    ],
    [
      'binary garbage named .csv',
      async () => write('garbage.csv', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))),
    ],
    [
      'an .xlsx whose sheet XML is malformed',
      async () => {
        const z = await JSZip.loadAsync(good);
        const name = Object.keys(z.files).find((n) => /worksheets\/sheet1\.xml$/.test(n))!;
        const xml = await z.file(name)!.async('string');
        z.file(name, `${xml.slice(0, Math.floor(xml.length / 2))}<row r="<<<"><c></row>`);
        return write('badsheet.xlsx', await z.generateAsync({ type: 'nodebuffer' }));
      },
    ],
    ['an empty .xlsx', async () => write('empty.xlsx', '')],
  ];
  for (const [what, make] of cases)
    it(`${what}: exit 2, the file named, no internal text, no draft`, async () => {
      const file = await make();
      const r = await cli(['mapping', 'suggest', file, '-o', `${file}.json`], { cwd: dir });
      expect(r.code).toBe(2);
      const message = r.stderr.split('\n')[0];
      expect(message).toContain(file);
      expect(message).not.toMatch(INTERNAL);
      expect(fs.existsSync(path.join(dir, `${file}.json`))).toBe(false);
      const json = await cli(['mapping', 'suggest', file, '-o', `${file}.json`, '--json'], { cwd: dir });
      const error = (JSON.parse(json.stdout) as { error: { message: string } }).error.message;
      expect(error).toContain(file);
      expect(error).not.toMatch(INTERNAL);
    });

  it('a header-only CSV: a draft of its columns (no data rows needed)', async () => {
    const file = write('headeronly.csv', `${header.join(';')}\n`);
    const r = await cli(['mapping', 'suggest', file, '-o', 'headeronly.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('headeronly.csv → supplier-products (header in row 1)');
  });

  it('a header of 100 KB is shown cut in the terminal, whole in the draft', async () => {
    const long = `Bemerkung ${'y'.repeat(100 * 1024)}`;
    const file = write('longhead.csv', `${header.join(';')};${long}\nSP-1;Sand;PL-MUC;MAT-SAND;KG;x\n`);
    const r = await cli(['mapping', 'suggest', file, '-o', 'longhead.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThan(2000);
    expect(r.stdout).toContain('longhead.csv → supplier-products');
    expect(r.stdout).toMatch(/not mapped: Bemerkung y+…/);
    const draft = JSON.parse(fs.readFileSync(path.join(dir, 'longhead.json'), 'utf8')) as {
      sheets: Record<string, { ignore?: string[] }>;
    };
    expect(draft.sheets['supplier-products'].ignore).toEqual([long]);
  });
});

describe('an empty file', () => {
  it('an empty .csv: the message validate gives for it, exit 2, no draft', async () => {
    const file = write('empty.csv', '');
    const v = await cli(['validate', file, '--json'], { cwd: dir });
    const said = (JSON.parse(v.stdout) as { issues: { message: string }[] }).issues[0].message;
    expect(said).toContain('empty');
    const r = await cli(['mapping', 'suggest', file, '-o', 'empty.json', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toBe(said);
    expect(fs.existsSync(path.join(dir, 'empty.json'))).toBe(false);
  });
});

describe('SIGTERM', () => {
  it('stops the real process between sources: exit 3, "Cancelled.", no draft file', async () => {
    // A workbook of 100,000 rows, given 40 times: some seconds of peeking, stopped early.
    const z = await JSZip.loadAsync(good);
    const name = Object.keys(z.files).find((n) => /worksheets\/sheet1\.xml$/.test(n))!;
    const xml = await z.file(name)!.async('string');
    const open = xml.slice(0, xml.indexOf('<sheetData>') + '<sheetData>'.length);
    const close = xml.slice(xml.indexOf('</sheetData>'));
    const cells = (r: number, v: string[]) =>
      v.map((s, i) => `<c r="${'ABCDE'[i]}${r}" t="inlineStr"><is><t>${s}</t></is></c>`).join('');
    const rows = [`<row r="1">${cells(1, header)}</row>`];
    for (let r = 2; r <= 100_000; r++) rows.push(`<row r="${r}">${cells(r, [`SP-${r}`, 'Sand'])}</row>`);
    z.file(name, open + rows.join('') + close);
    const big = write('big.xlsx', await z.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    const child = spawnCli(['mapping', 'suggest', ...Array<string>(40).fill(big), '-o', 'big.json'], {
      cwd: dir,
      env: { SUPPLY_LOADER_TIMINGS: '1' },
    });
    try {
      // The signal handlers are set before the command is loaded ("timing context" follows on stderr).
      const until = Date.now() + 60_000;
      while (!child.stderr().includes('timing context') && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 500));
      child.proc.kill('SIGTERM');
      const exit = await child.exit;
      expect(exit.code).toBe(3);
      expect(child.stderr()).toContain('Cancelled.');
      expect(fs.existsSync(path.join(dir, 'big.json'))).toBe(false);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('big.json'))).toEqual([]);
    } finally {
      child.proc.kill('SIGKILL');
    }
  }, 120_000);
});
