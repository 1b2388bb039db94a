/**
 * The public corpus: small files from the test suites of other spreadsheet and CSV readers (listed with their
 * origins and licences in test/fixtures/corpus/public/corpus.json and NOTICE), read through the path `validate`
 * uses (readSources). A readable file: each sheet's header and its number of data rows, as an independent reader
 * (SheetJS) reads them; and a workbook's peek for the Columns step (peekSource): its sheets in the workbook's
 * order, each with that header as its first row. A file that is not readable: refused with a message naming the file and its format in
 * words (the report naming the file), never an internal error or a library's words. Every read finishes (a per-file abort signal) and the
 * process's memory grows by a bounded amount while it runs.
 *
 * The "npm" part comes from packages that ship their test files (dev dependencies at exact versions) and is read
 * from node_modules: it always runs. The "external" part is data of other projects that is not kept in this
 * repository: it is read from the folder SUPPLY_PUBLIC_CORPUS names, else ../shared/corpus/public beside the
 * project, and skipped when that folder is not there.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from '../../core/workbook/column-mapping/schema.js';
import { columnLetter } from '../../core/workbook/cell-ref.js';
import { DATA_SHEETS } from '../../core/workbook/registry.js';
import { readSources } from '../../core/workbook/sources/index.js';
import { peekSource } from '../../core/workbook/sources/peek.js';
import type { DataSheetName } from '../../core/workbook/types.js';
import { bounded } from '../proof/helpers.js';

interface ExpectedSheet {
  name: string;
  header: string[];
  rows: number;
}
type Expected = { readable: true; sheets: ExpectedSheet[] } | { refused: true; format: string; words: string };
interface NpmEntry {
  file: string;
  origin: { package: string; version: string; path: string; licence: string };
  what: string;
  expected: Expected;
}
interface ExternalEntry {
  file: string;
  origin: { repo: string; path: string; commit: string; licence: string };
  what: string;
  expected: Expected;
}

const here = resolve(import.meta.dirname, '../fixtures/corpus/public');
const modules = resolve(import.meta.dirname, '../../node_modules');
const dir = process.env.SUPPLY_PUBLIC_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus/public');
const manifest = JSON.parse(await readFile(join(here, 'corpus.json'), 'utf8')) as {
  npm: NpmEntry[];
  external: ExternalEntry[];
};

/** What must never reach a user: a library's words, an internal error, a stack. */
const RAW =
  /Cannot read propert|undefined is not|is not a function|\bat \S+ \(|central directory|entity name|close tag|closing tag|only one root|disallowed|saxes|Unsupported file|CFB|\d+:\d+:/i;

/** Memory a single small file may add to the process while it is read: generous, far below a runaway read. */
const MAX_RSS_GROWTH = 400 * 1024 * 1024;

/** Each expected sheet fed to a target sheet of its own, every header cell ignored: its rows counted as unread. */
function mappingOf(name: string, sheets: ExpectedSheet[]): ColumnMapping {
  const targets = DATA_SHEETS.map((d) => d.name as DataSheetName);
  const isText = /\.(csv|txt|tsv)$/i.test(name);
  return {
    version: 1,
    sheets: Object.fromEntries(
      sheets.map((s, i) => [
        targets[i],
        {
          source: isText ? name : s.name,
          ...(s.header.some((h) => h.trim()) && { ignore: [...new Set(s.header.filter((h) => h.trim()))] }),
        },
      ]),
    ),
  };
}

/** Read one file as `validate` does and hold it to its expectation. */
async function check(path: string, ex: Expected): Promise<void> {
  const name = basename(path);
  const sheets = 'sheets' in ex ? ex.sheets : [];
  const { value: p } = await bounded(150_000, MAX_RSS_GROWTH, () =>
    readSources([path], { mapping: mappingOf(name, sheets), signal: AbortSignal.timeout(120_000) }),
  );
  for (const i of p.issues) expect(`${i.message} ${JSON.stringify(i.params ?? {})}`).not.toMatch(RAW);
  const fileErrors = p.issues.filter((i) => i.severity === 'error' && i.sheet === null && i.row === null);
  if ('refused' in ex) {
    expect(fileErrors.length, JSON.stringify(p.issues)).toBeGreaterThanOrEqual(1);
    expect(p.readable).toBe(false);
    const m = fileErrors[0].message;
    expect(m).toMatch(new RegExp(ex.words, 'i'));
    // The report names the file (validate prints "in.xlsx: 0 sheet(s) ..." above the message).
    expect(p.file).toBe(name);
    return;
  }
  expect(
    fileErrors.filter((i) => i.code !== 'no_known_sheet'),
    JSON.stringify(fileErrors),
  ).toEqual([]);
  for (const s of sheets) {
    const got = p.sheets.find((x) => x.sheetName === s.name || x.source === name || x.sheetName === name);
    expect(got, `sheet ${s.name}: ${JSON.stringify(p.issues.slice(0, 5))}`).toBeDefined();
    // The header: each non-empty cell ignored by the mapping at its column, or taken as a field there.
    const mappedAt = new Set(Object.values(got!.columns));
    const ignored = new Map((got!.ignoredColumns ?? []).map((c) => [c.cell.replace(/\d+$/, ''), c.header]));
    s.header.forEach((h, c) => {
      if (!h.trim()) return;
      const letter = columnLetter(c + 1);
      if (mappedAt.has(letter)) return;
      expect(ignored.get(letter), `header ${letter}`).toBe(h.trim());
    });
    expect(got!.rows.length + (got!.unreadRows ?? 0), `data rows of ${s.name}`).toBe(s.rows);
  }
}

/** A readable workbook's peek: its sheets in the workbook's order, each with the expected header as row 1. */
async function checkPeek(path: string, ex: Expected): Promise<void> {
  if (!('sheets' in ex) || !/\.xlsx$/i.test(path)) return;
  const peeked = await peekSource(path, { signal: AbortSignal.timeout(120_000) });
  expect(peeked.map((s) => s.name)).toEqual(ex.sheets.map((s) => s.name));
  for (const s of ex.sheets) {
    const row1 = [...(peeked.find((p) => p.name === s.name)?.rows[0] ?? [])];
    while (row1.length && row1[row1.length - 1] === '') row1.pop();
    expect(row1, `row 1 of ${s.name}`).toEqual(s.header.map((h) => h.trim()));
  }
}

describe('the public corpus from npm packages', () => {
  it('has every file of the manifest, from the package version it names', async () => {
    const wrong: string[] = [];
    for (const f of manifest.npm) {
      const pkg = join(modules, f.origin.package, 'package.json');
      const version = existsSync(pkg) ? (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version : null;
      if (version !== f.origin.version) wrong.push(`${f.origin.package}@${version ?? 'missing'}`);
      if (f.file !== `${f.origin.package}/${f.origin.path}` || !existsSync(join(modules, f.file))) wrong.push(f.file);
    }
    expect([...new Set(wrong)]).toEqual([]);
  });

  it('agrees with the expectations csv-spectrum ships beside its files', async () => {
    const spectrum = manifest.npm.filter((f) => f.origin.package === 'csv-spectrum');
    expect(spectrum.length).toBeGreaterThan(0);
    for (const f of spectrum) {
      const json = join(modules, 'csv-spectrum/json', basename(f.file).replace(/\.csv$/, '.json'));
      const parsed = JSON.parse(await readFile(json, 'utf8')) as Record<string, string> | Record<string, string>[];
      const records = Array.isArray(parsed) ? parsed : [parsed];
      const ex = f.expected;
      expect('sheets' in ex && ex.sheets[0], f.file).toEqual({
        name: 'Sheet1',
        header: Object.keys(records[0]),
        rows: records.length,
      });
    }
  });

  for (const entry of manifest.npm) {
    it(`${entry.file}: ${entry.what}`, { timeout: 180_000 }, async () => {
      await check(join(modules, entry.file), entry.expected);
      await checkPeek(join(modules, entry.file), entry.expected);
    });
  }
});

describe.skipIf(!existsSync(dir))('the public corpus from an external folder', () => {
  it('has every file of the manifest', () => {
    const missing = manifest.external.filter((f) => !existsSync(join(dir, f.file))).map((f) => f.file);
    expect(missing).toEqual([]);
  });

  for (const entry of manifest.external) {
    it(`${entry.file}: ${entry.what}`, { timeout: 180_000 }, async () => {
      await check(join(dir, entry.file), entry.expected);
      await checkPeek(join(dir, entry.file), entry.expected);
    });
  }
});
