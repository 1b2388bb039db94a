/**
 * E2E of the Columns step in browser mode with Debian Chromium: a German ERP export
 * (Windows-1252, `;`, decimal comma, own headers, a title row; built here with iconv-lite) is uploaded, the
 * Columns step suggests the fields (high confidence pre-selected), the unit "to" is translated to T, the
 * mapping is saved as "SAP MM monthly", then check → dry run → run. The next month's file is mapped by the saved
 * mapping without asking ("Mapping 'SAP MM monthly' applied", the step collapsed). Screenshots in light and
 * dark, English and German: test-artifacts/screenshots/30-*.png; the results CSV downloaded after the run (38-, 39-).
 * Several files of one export at once (40-42: listed with the sheet each feeds, one Columns step, results per
 * file), and each thing the check says is not read where the app shows it (43-47). The README's docs/images/import-columns.png
 * is 30-columns-en-light, docs/images/import-check-misnamed.png is 44-check-misnamed-column.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reportFailure, screenshotPath, startE2e, type E2eEnv } from './helpers.js';

let env: E2eEnv;
let page: Page;

const HEADER = 'Materialnummer;Materialkurztext;Werk;Materialart;ME;LKW km;Recyclinganteil %;Kommentar';
function erpFile(name: string, title: string, rows: string[]): string {
  const p = path.join(env.dir, name);
  fs.writeFileSync(p, iconv.encode([title, HEADER, ...rows].join('\r\n') + '\r\n', 'windows-1252'));
  return p;
}

async function shot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
}

async function chooseFile(file: string | string[], button = 'Choose workbook…') {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: button }).click(),
  ]);
  await chooser.setFiles(file);
}

/** A workbook of one supplier-products sheet with these rows (row 1: the header). */
async function productsWorkbook(name: string, rows: (string | number)[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('supplier-products').addRows(rows);
  const p = path.join(env.dir, name);
  await wb.xlsx.writeFile(p);
  return p;
}

/** Start over on the Import screen (a fresh page: whatever step the last test left). */
async function importScreen() {
  await page.goto(env.mode.url);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
}

beforeAll(async () => {
  env = await startE2e();
  page = await env.context.newPage();
}, 180_000);

afterEach((ctx) => reportFailure(ctx, page, env));

afterAll(async () => {
  await env?.close();
});

describe('Columns step: an ERP export through a saved mapping', () => {
  it('maps a German CSV in the Columns step, saves the mapping, checks, dry-runs and runs it', async () => {
    const nov = erpFile('MAT_2025-11.csv', 'Materialstamm Werk München – Stand 30.11.2025', [
      'E2E-M1;"Sand 0/2, gewaschen";PL-MUC;MAT-SAND;to;12,5;30;geprüft',
      'E2E-M2;Kies 8/16 „grob“;PL-MUC;MAT-GRAVEL;kg;1.250,5;;',
    ]);
    await page.goto(env.mode.url);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await chooseFile(nov);

    const card = page.getByRole('region', { name: 'MAT_2025-11.csv → supplier-products' });
    await card.waitFor();
    await card.getByText('Header in row 2').waitFor();
    // Suggestions of high confidence are chosen; the comment column is not imported.
    expect(await page.getByLabel('Field for column Werk').inputValue()).toBe('plant_code');
    expect(await page.getByLabel('Field for column LKW km').inputValue()).toBe('truck_km');
    expect(await page.getByLabel('Field for column Kommentar').inputValue()).toBe('');
    // Samples decoded from Windows-1252.
    await card.getByText('Kies 8/16 „grob“', { exact: false }).first().waitFor();
    // Required fields ticked off, by their labels.
    const required = page.getByRole('list', { name: 'Required fields' });
    for (const f of ['Your code', 'Name', 'Plant code', 'Material code', 'Unit'])
      await required.getByText(`✓ ${f}`, { exact: true }).waitFor();
    // a field's choice names its label and the template's column
    expect(await page.getByLabel('Field for column LKW km').locator('option:checked').textContent()).toBe(
      'Truck distance (km) (truck_km)',
    );
    // "to" is no unit of the template: it is asked for, and the preview shows it translated.
    await page.getByLabel('Value for Unit “to”').selectOption('T');
    const preview = page.getByRole('table', { name: 'First rows as they will be read' });
    await preview.getByRole('cell', { name: 'T', exact: true }).waitFor();
    // read by the core as the check will: "1.250,5" with the decimal comma is 1250.5, "kg" is the unit KG
    await preview.getByRole('cell', { name: '1,250.5', exact: true }).waitFor();
    await preview.getByRole('cell', { name: 'KG', exact: true }).waitFor();
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(['Your code', 'Name', 'Plant code', 'Material code', 'Unit', 'Truck distance (km)']),
    );

    // Screenshots: light/dark, English/German.
    await shot('30-columns-en-light');
    await page.getByLabel('Colours').selectOption('dark');
    await shot('31-columns-en-dark');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Pflichtfelder' }).first().waitFor();
    await shot('32-columns-de-dark');
    await page.getByLabel('Farben').selectOption('light');
    await shot('33-columns-de-light');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('heading', { name: 'Required fields' }).first().waitFor();

    // Save as mapping… (stored with the active profile, the CLI's store)
    await page.getByLabel('Name', { exact: true }).fill('SAP MM monthly');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('Mapping “SAP MM monthly” saved.').waitFor();
    const saved = env.mode.app.settings.columnMappingsOf(env.mode.app.settings.snapshot().activeProfileId);
    expect(saved['SAP MM monthly']).toMatchObject({
      name: 'SAP MM monthly',
      sheets: {
        'supplier-products': {
          source: 'MAT_*.csv',
          header_row: 2,
          ignore: ['Kommentar'],
          values: { unit: { to: 'T' } },
        },
      },
      csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',' },
    });

    await page.getByRole('button', { name: 'Check with these columns' }).click();
    await page.getByRole('heading', { name: 'Check of MAT_2025-11.csv' }).waitFor();
    await page.getByText('No problems found in 2 rows.').waitFor();
    await shot('34-columns-check');
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of MAT_2025-11.csv' }).waitFor();
    await page.getByRole('button', { name: 'Run the import (2 to write)' }).click();
    await page.getByRole('heading', { name: 'Results of MAT_2025-11.csv' }).waitFor({ timeout: 30_000 });
    await page.getByText('Completed: every row succeeded.').waitFor({ timeout: 30_000 });

    // The results in the ERP file's own layout: its title, its headers, Windows-1252 and ";", plus the outcome.
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download results CSV' }).click(),
    ]);
    expect(d.suggestedFilename()).toBe('MAT_2025-11.results.csv');
    const resultsFile = path.join(env.dir, 'MAT_2025-11.results.csv');
    await d.saveAs(resultsFile);
    const lines = iconv.decode(fs.readFileSync(resultsFile), 'windows-1252').split('\r\n');
    expect(lines[0]).toBe('Materialstamm Werk München – Stand 30.11.2025');
    expect(lines[1]).toBe(`${HEADER};_result;_id;_err_code;_message`);
    // the same fields (a comma needs no quotes with ";")
    expect(lines[2]).toMatch(/^E2E-M1;Sand 0\/2, gewaschen;PL-MUC;MAT-SAND;to;12,5;30;geprüft;created;[^;]+;;$/);
    await page.getByText('MAT_2025-11.results.csv is ready: your CSV file', { exact: false }).waitFor();
    await shot('38-columns-results-csv-en-light');
    await page.getByLabel('Colours').selectOption('dark');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('button', { name: 'Ergebnis-CSV herunterladen' }).waitFor();
    await shot('39-columns-results-csv-de-dark');
    await page.getByLabel('Farben').selectOption('light');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('button', { name: 'Download results CSV' }).waitFor();
  }, 120_000);

  it("the next month's file is mapped by the saved mapping: the step is collapsed, check and dry run follow", async () => {
    await page.getByRole('button', { name: 'Import another workbook' }).click();
    const dec = erpFile('MAT_2025-12.csv', 'Materialstamm Werk München – Stand 31.12.2025', [
      'E2E-M1;"Sand 0/2, gewaschen";PL-MUC;MAT-SAND;to;12,5;30;geprüft',
      'E2E-M3;Splitt 2/5;PL-MUC;MAT-GRAVEL;kg;7,5;;neu',
    ]);
    await chooseFile(dec);
    await page.getByText('Mapping “SAP MM monthly” applied').waitFor();
    await page.getByRole('heading', { name: 'Check of MAT_2025-12.csv' }).waitFor();
    await page.getByText('No problems found in 2 rows.').waitFor();
    expect(await page.getByLabel('Field for column Werk').count()).toBe(0); // collapsed: no pickers
    await shot('35-columns-applied');
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of MAT_2025-12.csv' }).waitFor();
    // E2E-M1 is already there (unchanged), E2E-M3 is new: one write.
    await page.getByRole('button', { name: 'Run the import (1 to write)' }).waitFor();
    await shot('36-columns-applied-dry-run');
  }, 120_000);

  it('a cell the mapping cannot read is shown at the ERP file’s own cell (MAT_2026-01.csv!E3); Change columns starts from the saved mapping', async () => {
    await page.getByRole('button', { name: 'Back to the check' }).click();
    await page.getByRole('button', { name: 'Choose another workbook' }).click();
    const jan = erpFile('MAT_2026-01.csv', 'Materialstamm Werk München – Stand 31.01.2026', [
      'E2E-M4;Sack Zement;PL-MUC;MAT-SAND;Stück;3;;neu',
    ]);
    await chooseFile(jan);
    await page.getByText('Mapping “SAP MM monthly” applied').waitFor();
    await page.getByRole('heading', { name: 'Check of MAT_2026-01.csv' }).waitFor();
    await page.getByText('MAT_2026-01.csv!E3', { exact: false }).first().waitFor();
    await shot('37-columns-error-at-source-cell');
    // "Change columns" opens the step with the saved mapping's choices (to add "Stück" → UNIT, say).
    await page.getByRole('button', { name: 'Change columns' }).click();
    expect(await page.getByLabel('Field for column Werk').inputValue()).toBe('plant_code');
    expect(await page.getByLabel('Field for column Kommentar').inputValue()).toBe('');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('SAP MM monthly');
    await page.getByLabel('Value for Unit “Stück”').selectOption('UNIT');
    await page.getByRole('button', { name: 'Check with these columns' }).click();
    await page.getByText('No problems found in 1 row.').waitFor();
  }, 120_000);
});

describe('several files of one ERP export at once', () => {
  it('a supplier list and a material list dropped together: listed with the sheet each feeds, one Columns step, results per file', async () => {
    const lief = path.join(env.dir, 'Lieferanten_2026-02.csv');
    fs.writeFileSync(
      lief,
      iconv.encode(
        [
          'Lieferantenstamm – Stand 28.02.2026',
          'Lieferantennummer;Firmenname;Land;Bemerkung',
          'E2E-L1;Kieswerk Süd GmbH;DE;neu',
          'E2E-L2;Österreichische Sand AG;AT;',
        ].join('\r\n') + '\r\n',
        'windows-1252',
      ),
    );
    const mat = erpFile('MAT_2026-02.csv', 'Materialstamm Werk München – Stand 28.02.2026', [
      'E2E-M6;Sand fein;PL-MUC;MAT-SAND;kg;3,5;;',
    ]);
    await importScreen();
    await chooseFile([lief, mat]);
    const listed = page.getByRole('list', { name: 'Files of this import' });
    await listed.getByText('feeds supplier-companies').waitFor();
    await listed.getByText('feeds supplier-products').waitFor();
    await shot('40-sources-listed');
    await page.getByLabel('Colours').selectOption('dark');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('list', { name: 'Dateien dieses Imports' }).getByText('liefert supplier-companies').waitFor();
    await page.getByRole('button', { name: 'Diese 2 Dateien lesen' }).waitFor();
    await shot('40-sources-listed-de-dark');
    await page.getByLabel('Farben').selectOption('light');
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('button', { name: 'Read these 2 files' }).click();

    await page.getByRole('region', { name: 'Lieferanten_2026-02.csv → supplier-companies' }).waitFor();
    await page.getByRole('region', { name: 'MAT_2026-02.csv → supplier-products' }).waitFor();
    expect(await page.getByLabel('Field for column Land').inputValue()).toBe('country');
    // each file's first rows as they will be read
    const previews = page.getByRole('table', { name: 'First rows as they will be read' });
    await previews.nth(0).getByRole('cell', { name: 'Kieswerk Süd GmbH' }).waitFor();
    await previews.nth(1).getByRole('cell', { name: '3.5', exact: true }).waitFor();
    await shot('41-columns-two-sources');
    await page.getByRole('button', { name: 'Check with these columns' }).click();
    await page.getByRole('heading', { name: 'Check of Lieferanten_2026-02.csv + MAT_2026-02.csv' }).waitFor();
    await page.getByText('No problems found in 3 rows.').waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('button', { name: 'Run the import (3 to write)' }).click();
    await page.getByText('Completed: every row succeeded.').waitFor({ timeout: 30_000 });

    // One results file per source, each in its own layout.
    const perSource = page.getByRole('list', { name: 'Results per source file' });
    for (const [file, first] of [
      ['Lieferanten_2026-02.csv', /^E2E-L1;Kieswerk Süd GmbH;DE;neu;created;[^;]+;;$/],
      ['MAT_2026-02.csv', /^E2E-M6;Sand fein;PL-MUC;MAT-SAND;kg;3,5;;;created;[^;]+;;$/],
    ] as const) {
      const [d] = await Promise.all([
        page.waitForEvent('download'),
        perSource.getByRole('button', { name: `Download results CSV – ${file}` }).click(),
      ]);
      expect(d.suggestedFilename()).toBe(file.replace('.csv', '.results.csv'));
      const saved = path.join(env.dir, d.suggestedFilename());
      await d.saveAs(saved);
      expect(iconv.decode(fs.readFileSync(saved), 'windows-1252').split('\r\n')[2]).toMatch(first);
    }
    await shot('42-results-per-source');
    await page.getByLabel('Language').selectOption('de');
    await page
      .getByRole('list', { name: 'Ergebnisse je Quelldatei' })
      .getByRole('button', { name: 'Ergebnis-CSV herunterladen – MAT_2026-02.csv' })
      .waitFor();
    await shot('42-results-per-source-de');
    await page.getByLabel('Sprache').selectOption('en');
  }, 120_000);
});

describe('nothing silently ignored, shown at its cell in the app', () => {
  const header = ['external_id', 'name', 'plant_code', 'material_code', 'unit'];
  const row = (i: number, material = 'MAT-SAND') => [`E2E-S${i}`, `Produkt ${i}`, 'PL-MUC', material, 'KG'];
  const issues = () => page.getByRole('table', { name: 'Problems by cell' });

  it('a misnamed column is an error at its header cell with "did you mean"; another unknown column is named as ignored, in the check and the dry run', async () => {
    await importScreen();
    await chooseFile(
      await productsWorkbook('misnamed.xlsx', [
        [...header, 'truck_distance_km', 'Kommentar'],
        [...row(1), 22, 'x'],
      ]),
    );
    // Its headers are not all the template's: the Columns step. The near miss is offered, not applied, nor ignored.
    const picker = page.getByLabel('Field for column truck_distance_km');
    expect(await picker.inputValue()).toBe('?');
    await page.getByRole('button', { name: 'Maybe Truck distance (km)? (70 %) Use it' }).waitFor();
    await page
      .getByRole('table', { name: 'First rows as they will be read' })
      .getByRole('cell', { name: 'E2E-S1' })
      .waitFor();
    await shot('43-columns-undecided-column');
    await page.getByRole('button', { name: 'Check with these columns' }).click();
    await page.getByRole('heading', { name: 'Check of misnamed.xlsx' }).waitFor();
    await page.getByText('1 error and 0 warnings in 1 row.', { exact: false }).waitFor();
    const line = issues().getByRole('row').filter({ hasText: 'F1' });
    expect(await line.textContent()).toMatch(/truck_distance_km.*did you mean .?truck_km/);
    const ignored = 'Ignored columns of supplier-products: Kommentar (G1, not imported by the mapping)';
    await page.getByText(ignored).waitFor();
    await shot('44-check-misnamed-column');
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of misnamed.xlsx' }).waitFor();
    await page.getByText(ignored).waitFor();
  }, 60_000);

  it('a missing required column: the header error is shown and the 3 filled rows are counted as not read', async () => {
    await importScreen();
    await chooseFile(
      await productsWorkbook('missing.xlsx', [header.slice(0, 4), ...[1, 2, 3].map((i) => row(i).slice(0, 4))]),
    );
    await page.getByRole('heading', { name: 'Check of missing.xlsx' }).waitFor();
    const sheetRow = page.getByRole('row', { name: /supplier-products/ }).first();
    expect((await sheetRow.getByRole('cell').allTextContents()).map((c) => c.trim())).toEqual(['0', '0', '3']);
    await page.getByText('Rows not read: the sheet’s header has an error', { exact: false }).waitFor();
    expect(await issues().textContent()).toMatch(/unit/);
    await shot('45-check-missing-column');
  }, 60_000);

  it('a workbook with headers only is an error, never "No problems found"', async () => {
    await importScreen();
    await chooseFile(await productsWorkbook('empty.xlsx', [header]));
    await page.getByRole('heading', { name: 'Check of empty.xlsx' }).waitFor();
    await page.getByText('No data rows', { exact: false }).first().waitFor();
    expect(await page.getByText('No problems found', { exact: false }).count()).toBe(0);
  }, 60_000);

  it('an unknown material code is blocked at its cell in the dry run with the closest known code', async () => {
    await importScreen();
    // known codes: those of the import and the ones the service resolved for it (MAT-SAND, on row 2)
    await chooseFile(await productsWorkbook('typo.xlsx', [header, row(7), row(8, 'MAT-SNAD')]));
    await page.getByRole('heading', { name: 'Check of typo.xlsx' }).waitFor();
    await page.getByRole('button', { name: 'Make the dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run of typo.xlsx' }).waitFor();
    const blocked = page
      .getByRole('table', { name: 'Rows of the dry run' })
      .getByRole('row')
      .filter({ hasText: 'E2E-S8' });
    expect(await blocked.textContent()).toMatch(/supplier-products!D3.*MAT-SNAD.*\(did you mean MAT-SAND\?\)/);
    await shot('46-dry-run-unknown-code');
  }, 60_000);

  it('each file kind is said for what it is: a PDF, an old .xls saved as .xlsx', async () => {
    await importScreen();
    const pdf = path.join(env.dir, 'Bericht.csv');
    fs.writeFileSync(pdf, '%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF\n');
    await chooseFile(pdf);
    await page.getByText('This is a PDF document', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Choose another workbook' }).click();
    const xls = path.join(env.dir, 'Altbestand.xlsx');
    const cfb = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    fs.writeFileSync(xls, cfb);
    await chooseFile(xls);
    await page.getByText('Excel Workbook (.xlsx)', { exact: false }).first().waitFor();
    await shot('47-check-file-kind');
  }, 60_000);
});

describe('the Columns step: the sheet a file feeds, only the sheets that need it, back from the check', () => {
  it('a template workbook with one misspelled header opens the Columns step for that sheet only; the check leads back to it', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.resolve('templates/supply-loader-onboarding.xlsx'));
    const header = wb.getWorksheet('supplier-products')!.getRow(1);
    header.getCell((header.values as unknown[]).indexOf('plant_code')).value = 'plant_cod';
    const file = path.join(env.dir, 'template-typo.xlsx');
    await wb.xlsx.writeFile(file);
    await importScreen();
    await chooseFile(file);
    const card = page.getByRole('region', { name: 'supplier-products → supplier-products' });
    await card.waitFor();
    // one sheet in the step, the others named as read as the template
    expect(await page.getByRole('region', { name: / → / }).count()).toBe(1);
    await page.getByText('Read as the template (their headers are its fields):', { exact: false }).waitFor();
    await page.getByLabel('Field for column plant_cod').selectOption('plant_code');
    await shot('48-columns-template-one-sheet');
    await page.getByRole('button', { name: 'Check with these columns' }).click();
    await page.getByRole('heading', { name: 'Check of template-typo.xlsx' }).waitFor();
    // back to the columns without choosing the file again: the choice is kept
    await page.getByRole('button', { name: 'Back to columns' }).click();
    await card.waitFor();
    expect(await page.getByLabel('Field for column plant_cod').inputValue()).toBe('plant_code');
  }, 90_000);

  it('the sheet a file feeds is chosen and changed; years stay as written; problems in German words, no validator text', async () => {
    const csv = path.join(env.dir, 'Liste.csv');
    fs.writeFileSync(csv, 'Fertigungsversion;Jahr;Menge;ME\r\nFV-1;2024;1.250,5;to\r\nFV-2;2025;12,5;to\r\n');
    await importScreen();
    await chooseFile(csv);
    const chooser = page.getByLabel('Sheet that Liste.csv feeds');
    expect(await chooser.inputValue()).toBe('production');
    const preview = page.getByRole('table', { name: 'First rows as they will be read' });
    await preview.getByRole('cell', { name: '2024', exact: true }).waitFor();
    expect(await preview.textContent()).not.toMatch(/2,024|2\.024/);
    // Another sheet: the card is made for it, the suggestions for that sheet's fields.
    await chooser.selectOption('silo-items');
    await page.getByRole('region', { name: 'Liste.csv → silo-items' }).waitFor();
    expect(await page.getByLabel('Field for column Jahr', { exact: true }).inputValue()).toBe('year');
    expect(await page.getByLabel('Field for column Menge', { exact: true }).inputValue()).toBe('amount');
    // Back to production, with the unit column taken as a number: a problem at its cell, in the Check's words.
    await page.getByLabel('Sheet that Liste.csv feeds').selectOption('production');
    await page.getByRole('region', { name: 'Liste.csv → production' }).waitFor();
    await page.getByLabel('Field for column Menge', { exact: true }).selectOption('');
    await page.getByLabel('Field for column ME', { exact: true }).selectOption('quantity');
    await page.getByLabel('Language').selectOption('de');
    const problems = page.getByRole('listitem').filter({ hasText: 'Liste.csv!D2' });
    await problems.first().waitFor();
    const text = (await problems.first().textContent()) ?? '';
    expect(text).not.toMatch(/Invalid (input|option)|expected|received|must be/i);
    await shot('49-columns-sheet-chooser-de');
    await page.getByLabel('Sprache').selectOption('en');
  }, 90_000);
});
