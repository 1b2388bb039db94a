/**
 * The whole-flow E2E test's session and helpers: one Chromium page on the app in browser mode with its embedded
 * sandbox for the whole file (beforeAll / afterAll; a failing step leaves a screenshot), the sandbox's control
 * routes and API, the onboarding workbook's data as a user fills it, checks of the page's layout (unnamed
 * controls, fields sticking out of their card, words split mid-word), and reading the downloaded workbooks.
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { OUTCOME_FILLS } from '../../core/jobs/results-workbook.js';
import { fillTemplate } from '../fixtures/fill-template.js';
import type { E2eEnv } from './helpers.js';
import { chooseFile as chooseFileIn, fullPageShot, reportFailure, screenshotPath, startE2e } from './helpers.js';

type Row = Record<string, string | number | null>;
export type Sheets = Record<string, Row[]>;

export interface Catalog {
  plants: { id: string; external_id: string }[];
  elementaries: { id: string; external_id: string }[];
}

/** A material type id the service does not know: the supplier product mapped to it fails. */
export const WRONG_ID = '3f1e2d4c-0000-4000-8000-000000000001';

const idOf = (list: { id: string; external_id: string }[], code: string) =>
  list.find((x) => x.external_id === code)!.id;

/** The elementary material's id in the sandbox's catalogue. */
export const materialId = (cat: Catalog, code: string) => idOf(cat.elementaries, code);

export function onboarding(cat: Catalog, materialId: string): Sheets {
  return {
    plants: [{ plant_code: 'HEID', plant_id: idOf(cat.plants, 'PL-HEID') }],
    materials: [
      { material_code: 'CEM1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      { material_code: 'FM-NEU', category: 'elementary', material_type_id: materialId },
    ],
    'supplier-companies': [
      { external_id: 'E-SC-1', name: 'Holcim Deutschland', country: 'DE' },
      { external_id: 'E-SC-2', name: 'Dyckerhoff', country: 'DE' },
    ],
    'supplier-plants': [
      {
        external_id: 'E-SPL-1',
        name: 'Werk Lägerdorf',
        supplier_company_external_id: 'E-SC-1',
        country: 'DE',
        city: 'Lägerdorf',
      },
      {
        external_id: 'E-SPL-2',
        name: 'Werk Deuna',
        supplier_company_external_id: 'E-SC-2',
        country: 'DE',
        city: 'Deuna',
      },
    ],
    'supplier-products': [
      {
        external_id: 'E-SP-1',
        name: 'CEM I 42,5 R Holcim',
        plant_code: 'HEID',
        material_code: 'CEM1',
        supplier_plant_external_id: 'E-SPL-1',
        unit: 'KG',
        truck_km: 120,
      },
      {
        external_id: 'E-SP-2',
        name: 'CEM I 42,5 R Dyckerhoff',
        plant_code: 'HEID',
        material_code: 'CEM1',
        supplier_plant_external_id: 'E-SPL-2',
        unit: 'KG',
        truck_km: 85,
      },
      {
        external_id: 'E-SP-3',
        name: 'Klinker',
        plant_code: 'PL-MUC',
        material_code: 'MAT-CLINKER',
        supplier_plant_external_id: 'E-SPL-1',
        unit: 'KG',
        train_km: 300,
      },
      {
        external_id: 'E-SP-4',
        name: 'Fließmittel Neu',
        plant_code: 'HEID',
        material_code: 'FM-NEU',
        supplier_plant_external_id: 'E-SPL-2',
        unit: 'KG',
        truck_km: 40,
      },
    ],
    'hazardous-substances': [{ supplier_product_external_id: 'E-SP-3', cas_number: '14808-60-7', mass_share: 0.05 }],
    silos: [{ external_id: 'E-SILO-1', name: 'Zementsilo 1', plant_code: 'HEID' }],
    'silo-items': [
      { silo_external_id: 'E-SILO-1', supplier_product_external_id: 'E-SP-1', year: 2024, amount: 1000 },
      { silo_external_id: 'E-SILO-1', supplier_product_external_id: 'E-SP-1', year: 2025, amount: 1200 },
      { silo_external_id: 'E-SILO-1', supplier_product_external_id: 'E-SP-2', year: 2025, amount: 800 },
    ],
    'product-instances': [
      {
        external_id: 'E-PI-1',
        product_external_id: 'ART-10011',
        plant_code: 'HEID',
        produced_from: 2023,
        name: 'CEM I 42,5 R Heidelberg',
      },
      {
        external_id: 'E-PI-2',
        product_external_id: 'ART-10012',
        plant_code: 'PL-MUC',
        produced_from: 2022,
        produced_to: 2030,
        name: 'CEM I 52,5 R München',
      },
    ],
    'prechain-products': [
      { external_id: 'E-PC-1', product_instance_external_id: 'E-PI-1', plant_code: 'PL-MUC', truck_km: 50 },
    ],
    bom: [
      {
        product_instance_external_id: 'E-PI-1',
        component_type: 'silo',
        component_external_id: 'E-SILO-1',
        mass_kg: 950,
      },
      {
        product_instance_external_id: 'E-PI-1',
        component_type: 'supplier_product',
        component_external_id: 'E-SP-4',
        mass_kg: 2.5,
      },
      {
        product_instance_external_id: 'E-PI-2',
        component_type: 'supplier_product',
        component_external_id: 'E-SP-3',
        mass_kg: 100,
      },
      {
        product_instance_external_id: 'E-PI-2',
        component_type: 'silo',
        component_external_id: 'E-SILO-1',
        mass_kg: 300,
      },
      {
        product_instance_external_id: 'E-PI-2',
        component_type: 'prechain_product',
        component_external_id: 'E-PC-1',
        mass_kg: 50,
      },
    ],
  };
}

export async function readDownload(d: Download): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await d.path());
  return wb;
}

export function column(ws: ExcelJS.Worksheet, header: string): number {
  let found = 0;
  ws.getRow(1).eachCell((c, n) => {
    if (c.value === header) found = n;
  });
  return found;
}

/**
 * The fill each outcome gives a row's cells in the results workbook (core/jobs/results-workbook.ts OUTCOME_FILLS): the
 * light green of a success, blue of a change, salmon of a failure, yellow of a skip; unchanged rows and mapping
 * rows none.
 */
// A mapping sheet's rows (plants, materials) are not written: no fill.
const OUTCOME_FILL: Record<string, string | null> = { ...OUTCOME_FILLS, mapping: null };

function fillOf(cell: ExcelJS.Cell): string | null {
  const f = cell.fill as ExcelJS.FillPattern | undefined;
  if (!f || f.type !== 'pattern' || f.pattern !== 'solid') return null;
  return (f.fgColor?.argb ?? null) as string | null;
}

/** Every input cell whose fill is not its own row's outcome fill; every outcome fill on a system sheet. */
export function fillMismatches(wb: ExcelJS.Workbook): string[] {
  const out: string[] = [];
  const outcomeFills = new Set(Object.values(OUTCOME_FILL).filter(Boolean));
  for (const ws of wb.worksheets) {
    const resultCol = column(ws, '_result');
    if (!resultCol) {
      if (ws.state === 'visible' && ws.name === 'Report') continue; // the report's legend uses the colours
      ws.eachRow((row, r) =>
        row.eachCell((c, n) => {
          if (outcomeFills.has(fillOf(c) ?? '')) out.push(`${ws.name}!R${r}C${n}: ${fillOf(c)} on a system sheet`);
        }),
      );
      continue;
    }
    for (let r = 2; r <= ws.rowCount; r++) {
      const row = ws.getRow(r);
      const result = row.getCell(resultCol).value;
      const want = typeof result === 'string' && result in OUTCOME_FILL ? OUTCOME_FILL[result] : null;
      for (let c = 1; c < resultCol; c++) {
        const got = fillOf(row.getCell(c));
        if (got !== want) out.push(`${ws.name}!R${r}C${c}: ${got ?? 'none'} for _result ${String(result)}`);
      }
    }
  }
  return out;
}

/** `n` supplier companies (`E-SC-R1` …): a job long enough to pause and resume. */
export function companies(n: number): Sheets {
  return {
    'supplier-companies': Array.from({ length: n }, (_, i) => ({
      external_id: `E-SC-R${i + 1}`,
      name: `Lieferant ${i + 1}`,
      country: 'DE',
    })),
  };
}

/**
 * Production figures as entered in the web interface: every past year of E-PI-1 (from 2023) and E-PI-2 (from
 * 2022), the current year left open. The service's current year.
 */
export async function pastProductionFigures({ control, api }: FlowSession): Promise<number> {
  const { now } = await control<{ now: string }>('GET', '/__sandbox/clock');
  const year = new Date(now).getUTCFullYear();
  const pi1 = (await api<{ data: { id: string }[] }>('/v2/product-instances?external_id=E-PI-1')).data[0].id;
  const pi2 = (await api<{ data: { id: string }[] }>('/v2/product-instances?external_id=E-PI-2')).data[0].id;
  for (let y = 2023; y < year; y++)
    await control('PUT', '/__sandbox/production', {
      product_instance_id: pi1,
      year: y,
      quantity: 180_000 + (y - 2023) * 12_500,
    });
  for (let y = 2022; y < year; y++)
    await control('PUT', '/__sandbox/production', {
      product_instance_id: pi2,
      year: y,
      quantity: 95_000 - (y - 2022) * 4_000,
    });
  return year;
}

/** A product instance of ART-10012 at PL-HEID produced from `year`, without production figures. */
export async function instanceOfThisYear(flow: FlowSession, externalId: string, year: number): Promise<void> {
  const heid = flow.cat.plants.find((p) => p.external_id === 'PL-HEID')!.id;
  const product = (await flow.api<{ data: { id: string; external_id: string }[] }>('/v2/products?limit=100')).data.find(
    (p) => p.external_id === 'ART-10012',
  )!;
  const created = await fetch(`${flow.sandboxUrl}/v2/product-instances`, {
    method: 'POST',
    headers: { 'x-api-key': flow.env.mode.app.sandbox.ownerKey() ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ external_id: externalId, product_id: product.id, plant_id: heid, produced_from: year }),
  });
  expect(created.status).toBeLessThan(300);
}

/** The Connection screen's "New profile" form filled (this sandbox's URL, the key) and saved. */
export async function saveNewProfile({ page, sandboxUrl }: FlowSession, name: string, key: string): Promise<void> {
  await page.getByRole('button', { name: 'New profile' }).first().click();
  await page.getByLabel('Profile name').fill(name);
  await page.getByLabel('Base URL').fill(sandboxUrl);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

/** The flow's session: the page and the sandbox, set once the file's beforeAll has run. */
export interface FlowSession {
  readonly env: E2eEnv;
  readonly page: Page;
  readonly sandboxUrl: string;
  readonly cat: Catalog;
  /** the page's console errors and uncaught exceptions so far */
  readonly consoleErrors: string[];
  /** where the first step saves the onboarding template it downloads */
  readonly template: string;
  /** The onboarding template filled with `data`, saved as `name` in the test's folder. */
  workbook(name: string, data: Sheets): Promise<string>;
  shot(name: string): Promise<void>;
  /** A call of the sandbox's control routes (`/__sandbox/...`). */
  control<T>(method: string, p: string, body?: unknown): Promise<T>;
  /** A read of the API with the owner's key. */
  api<T>(p: string): Promise<T>;
  chooseFile(buttonName: string, file: string): Promise<void>;
  unnamedControls(): Promise<string[]>;
  overflowingFields(): Promise<string[]>;
  overflowAcrossWidths(): Promise<string[]>;
  entityWordsSplitAcrossWidths(): Promise<string[]>;
  expectRevealed(target: ReturnType<Page['locator']>): Promise<void>;
}

/** Registers the file's beforeAll / afterEach / afterAll: call once at the top of the test file. */
export function flowSession(): FlowSession {
  let env: E2eEnv;
  let page: Page;
  let sandboxUrl: string;
  let cat: Catalog;
  const consoleErrors: string[] = [];

  async function shot(name: string) {
    await fullPageShot(page, screenshotPath(name));
  }

  /** Visible buttons, inputs and selects without an accessible name (label, text, aria-label). */
  function unnamedControls(): Promise<string[]> {
    return page.evaluate(() =>
      [
        ...document.querySelectorAll(
          'main button, main select, main input, main textarea, main a[href], main [tabindex="0"]',
        ),
      ]
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .filter((el) => {
          const label =
            el.getAttribute('aria-label') ||
            (el as HTMLElement).innerText?.trim() ||
            (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
            el.closest('label');
          return !label;
        })
        .map((el) => el.outerHTML.slice(0, 100)),
    );
  }

  async function control<T>(method: string, p: string, body?: unknown): Promise<T> {
    const res = await fetch(`${sandboxUrl}${p}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${p} → ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async function api<T>(p: string): Promise<T> {
    const res = await fetch(`${sandboxUrl}${p}`, { headers: { 'x-api-key': env.mode.app.sandbox.ownerKey() ?? '' } });
    return (await res.json()) as T;
  }

  /** Hand a workbook to the page the way a user does in browser mode: the button opens the file chooser. */
  function chooseFile(buttonName: string, file: string) {
    return chooseFileIn(page, buttonName, file);
  }

  /** Inputs and selects of a card that stick out of it (the check's search field once stuck out by 24 px). */
  function overflowingFields(): Promise<string[]> {
    return page.evaluate(() =>
      [...document.querySelectorAll('main .card input, main .card select, main .card button')]
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => {
          const card = el.closest('.card')!.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          const over = Math.max(r.right - card.right, card.left - r.left);
          return over > 0.5 ? `${el.outerHTML.slice(0, 60)} by ${Math.round(over)} px` : '';
        })
        .filter(Boolean),
    );
  }

  /** overflowingFields() at window widths from 1280 down to 900 px (the filter rows wrap differently at each). */
  async function overflowAcrossWidths(): Promise<string[]> {
    const out: string[] = [];
    for (let width = 1280; width >= 900; width -= 8) {
      await page.setViewportSize({ width, height: 800 });
      for (const o of await overflowingFields()) out.push(`${width} px wide: ${o}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    return out;
  }

  /**
   * Entity names of the results table split mid-word ("Lieferantenpro|dukt"): every word of an entity name must
   * fit its column (from 1280 down to 900 px window width).
   */
  async function entityWordsSplitAcrossWidths(): Promise<string[]> {
    const out: string[] = [];
    for (let width = 1280; width >= 900; width -= 8) {
      await page.setViewportSize({ width, height: 800 });
      const found = await page.evaluate(() => {
        const bad: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('.results-grid .entity')) {
          const cell = el.parentElement!;
          const probe = document.createElement('span');
          probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
          probe.style.font = getComputedStyle(el).font;
          document.body.append(probe);
          for (const word of (el.textContent ?? '').split(/\s+/).filter(Boolean)) {
            probe.textContent = word;
            if (probe.getBoundingClientRect().width > cell.clientWidth + 0.5)
              bad.push(`"${word}" (${Math.round(probe.getBoundingClientRect().width)} px) in ${cell.clientWidth} px`);
          }
          probe.remove();
        }
        return bad;
      });
      for (const f of new Set(found)) out.push(`${width} px wide: ${f}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    return out;
  }

  /** New content is in the viewport and has the focus. */
  async function expectRevealed(target: ReturnType<Page['locator']>) {
    await target.waitFor();
    await expect
      .poll(async () => {
        const box = await target.boundingBox();
        const vp = page.viewportSize()!;
        // below the sticky top bar, not hidden under it
        const top = await page.locator('header.topbar').evaluate((h) => h.getBoundingClientRect().bottom);
        return box !== null && box.y >= top && box.y < vp.height - 40;
      })
      .toBe(true);
    expect(await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))).toBe(
      true,
    );
  }

  beforeAll(async () => {
    env = await startE2e();
    sandboxUrl = env.mode.app.sandbox.baseUrl() ?? '';
    cat = await control<Catalog>('GET', '/__sandbox/catalog');
    page = await env.context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
  });

  // A failing step leaves a picture of what the page showed (test-artifacts/screenshots/failed-*.png).
  afterEach((ctx) => reportFailure(ctx, page, env));

  afterAll(async () => {
    await env?.close();
  });

  return {
    get env() {
      return env;
    },
    get page() {
      return page;
    },
    get sandboxUrl() {
      return sandboxUrl;
    },
    get cat() {
      return cat;
    },
    get template() {
      return path.join(env.dir, 'template.xlsx');
    },
    async workbook(name, data) {
      const out = path.join(env.dir, name);
      await fillTemplate(path.join(env.dir, 'template.xlsx'), data, out);
      return out;
    },
    consoleErrors,
    shot,
    control,
    api,
    chooseFile,
    unnamedControls,
    overflowingFields,
    overflowAcrossWidths,
    entityWordsSplitAcrossWidths,
    expectRevealed,
  };
}
