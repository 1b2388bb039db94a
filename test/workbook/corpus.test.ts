/**
 * The public corpus: small files from the test suites of other spreadsheet and CSV readers (listed with their
 * origins and licences in test/fixtures/corpus/public/corpus.json and NOTICE), read through the path `validate`
 * uses (readSources). A readable file: each sheet's header and its number of data rows, as an independent reader
 * (SheetJS) reads them. A file that is not readable: refused with a message naming the file and its format in
 * words, never an internal error or a library's words. Every read finishes (a per-file abort signal).
 *
 * The files themselves are data of other projects and are not kept in this repository: they are read from the
 * folder SUPPLY_PUBLIC_CORPUS names, else ../shared/corpus/public beside the project.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from '../../core/workbook/column-mapping/schema.js';
import { columnLetter } from '../../core/workbook/cell-ref.js';
import { DATA_SHEETS } from '../../core/workbook/registry.js';
import { readSources } from '../../core/workbook/sources/index.js';
import type { DataSheetName } from '../../core/workbook/types.js';

interface ExpectedSheet {
  name: string;
  header: string[];
  rows: number;
}
interface CorpusEntry {
  file: string;
  origin: { repo: string; path: string; commit: string; licence: string };
  what: string;
  expected: { readable: true; sheets: ExpectedSheet[] } | { refused: true; format: string; words: string };
}

const here = resolve(import.meta.dirname, '../fixtures/corpus/public');
const dir = process.env.SUPPLY_PUBLIC_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus/public');
const manifest = JSON.parse(await readFile(join(here, 'corpus.json'), 'utf8')) as { files: CorpusEntry[] };

/** What must never reach a user: a library's words, an internal error, a stack. */
const RAW =
  /Cannot read propert|undefined is not|is not a function|\bat \S+ \(|central directory|entity name|close tag|closing tag|only one root|disallowed|saxes|Unsupported file|CFB|\d+:\d+:/i;

/** Each expected sheet fed to a target sheet of its own, every header cell ignored: its rows counted as unread. */
function mappingOf(entry: CorpusEntry, sheets: ExpectedSheet[]): ColumnMapping {
  const targets = DATA_SHEETS.map((d) => d.name as DataSheetName);
  const isText = /\.(csv|txt|tsv)$/i.test(entry.file);
  return {
    version: 1,
    sheets: Object.fromEntries(
      sheets.map((s, i) => [
        targets[i],
        {
          source: isText ? entry.file : s.name,
          ...(s.header.some((h) => h.trim()) && { ignore: [...new Set(s.header.filter((h) => h.trim()))] }),
        },
      ]),
    ),
  };
}

describe.skipIf(!existsSync(dir))('the public corpus', () => {
  it('has every file of the manifest', () => {
    const missing = manifest.files.filter((f) => !existsSync(join(dir, f.file))).map((f) => f.file);
    expect(missing).toEqual([]);
  });

  for (const entry of manifest.files) {
    it(`${entry.file}: ${entry.what}`, { timeout: 60_000 }, async () => {
      const path = join(dir, entry.file);
      const ex = entry.expected;
      const sheets = 'sheets' in ex ? ex.sheets : [];
      const p = await readSources([path], { mapping: mappingOf(entry, sheets), signal: AbortSignal.timeout(30_000) });
      for (const i of p.issues) expect(`${i.message} ${JSON.stringify(i.params ?? {})}`).not.toMatch(RAW);
      const fileErrors = p.issues.filter((i) => i.severity === 'error' && i.sheet === null && i.row === null);
      if ('refused' in ex) {
        expect(fileErrors.length, JSON.stringify(p.issues)).toBeGreaterThanOrEqual(1);
        expect(p.readable).toBe(false);
        const m = fileErrors[0].message;
        expect(m).toMatch(new RegExp(ex.words, 'i'));
        return;
      }
      expect(
        fileErrors.filter((i) => i.code !== 'no_known_sheet'),
        JSON.stringify(fileErrors),
      ).toEqual([]);
      for (const s of sheets) {
        const got = p.sheets.find(
          (x) => x.sheetName === s.name || x.source === entry.file || x.sheetName === entry.file,
        );
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
    });
  }
});
