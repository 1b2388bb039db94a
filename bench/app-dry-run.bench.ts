/**
 * The app's dry run of the nightly re-sync workbook in browser mode, against the CLI's `plan` of the same
 * workbook, in one run. The workbook and the service that holds it as the re-sync benchmark makes them
 * (lib/resync-workbook.ts: ~130,000 unchanged rows over every sheet, imported once at latency 0), then L = 40 ms:
 *  - the CLI: `plan FILE` as a child process (bin/supply-loader.cjs), wall time and peak RSS of its process tree;
 *  - the app: `node scripts/start.mjs --web --no-build` as a child process (the renderer built first, as
 *    `npm run start:web` builds it), its config folder holding one saved profile on the benchmark's sandbox, the
 *    active one; Debian Chromium (headless) drives it as a user does: Import, "Choose workbook…", the file
 *    picked, the Columns step accepted when the app asks (a workbook in the template's layout skips it), "Make the
 *    dry run" clicked as soon as the check offers it. Measured from the moment the file is picked (the CLI's
 *    wall includes reading the file too) to the first row of the dry-run table in the DOM (a MutationObserver
 *    in the page notes the time), and the peak RSS of the app server's process tree (not Chromium's) over that
 *    interval (lib/process-tree.ts, the root's high-water mark reset at the start).
 * Goals: app time / CLI plan wall ≤ 1.2; app peak ≤ 1.1 × the CLI's peak (the same, within the spread of a
 * peak between runs). Linux only (peak RSS from /proc). Run from the repository root (`npm run bench`).
 *
 *   npx tsx bench/app-dry-run.bench.ts [--rows 130000] [--quick]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { saveProfileWithKey } from '../core/app/profiles.js';
import { JsonFile } from '../core/settings/json-file.js';
import { openSecretStore } from '../core/settings/keychain.js';
import { SettingsStore } from '../core/settings/settings.js';
import { buildRenderer, launchChromium, openFileChooser } from '../test/e2e/helpers.js';
import { runCli } from './lib/cli-process.js';
import {
  control,
  isMain,
  type LoggedRequest,
  requestMark,
  requestsSince,
  ROOT,
  seconds,
  startSandboxProcess,
  table,
  writeResult,
} from './lib/common.js';
import { watchTree } from './lib/process-tree.js';
import { seedResyncWorkbook } from './lib/resync-workbook.js';

const LATENCY_MS = 40;
/** app time / CLI plan wall */
export const GOAL_RATIO = 1.2;
/** app peak RSS / CLI peak RSS */
export const GOAL_PEAK_RATIO = 1.1;
/** The first row of the dry-run table with its cells (not the "Loading…" placeholder of a page not there yet). */
const FIRST_ROW =
  '[role="table"][aria-label="Rows of the dry run"] [role="row"][aria-rowindex="2"] [role="cell"]:not(.vplaceholder)';
const STEP_TIMEOUT_MS = 15 * 60_000;

/** Requests per path, ids replaced by {id}. */
function byPath(log: LoggedRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of log) {
    const p = `${r.method} ${r.path.replace(/\/[0-9a-f-]{36}/g, '/{id}').replace(/\?.*$/, '')}`;
    out[p] = (out[p] ?? 0) + 1;
  }
  return out;
}

interface AppServer {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** `node scripts/start.mjs --web --no-build --port 0` with its config in `configDir`; resolves with its URL. */
function startAppServer(configDir: string): Promise<AppServer> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--web', '--no-build', '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SUPPLY_LOADER_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.exitCode === null && child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the app did not start: ${out}${err}`)), 120_000);
    child.on('exit', (code) => reject(new Error(`the app exited with ${code}: ${out}${err}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-20_000);
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        stop: () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null) return res();
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** The app's connection: one saved profile on the benchmark's sandbox, the active one (as the Connection screen saves it). */
async function saveAppProfile(configDir: string, baseUrl: string, apiKey: string): Promise<void> {
  const settings = new SettingsStore(new JsonFile(join(configDir, 'settings.json')));
  const saved = await saveProfileWithKey(
    { settings, secrets: openSecretStore(configDir, null) },
    { name: 'Re-sync benchmark', baseUrl, apiKey },
  );
  settings.selectProfile(saved.id);
}

/** Date.now() in the page when each step was first in the DOM (null: not seen). */
interface PageMarks {
  /** the check's "Make the dry run" button */
  checkShownAt: number | null;
  /** the click on it */
  clickedAt: number | null;
  /** the dry run's heading (its overview) */
  overviewAt: number | null;
  /** the first row of the dry-run table with its cells */
  firstRowAt: number | null;
}

/**
 * A MutationObserver in the page that notes when each step is first in the DOM, and a listener that notes the
 * click on "Make the dry run". Handed over as source text: tsx's transform names functions with a helper the page
 * does not have.
 */
function watchSteps(page: Page): Promise<void> {
  return page.evaluate(`(() => {
    const firstRow = ${JSON.stringify(FIRST_ROW)};
    const marks = (window.__benchMarks = { checkShownAt: null, clickedAt: null, overviewAt: null, firstRowAt: null });
    const dryRunButton = () =>
      [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Make the dry run');
    const observer = new MutationObserver(() => {
      const now = Date.now();
      if (marks.checkShownAt === null && dryRunButton()) marks.checkShownAt = now;
      if (marks.overviewAt === null && document.getElementById('plan-heading')) marks.overviewAt = now;
      if (marks.firstRowAt === null && document.querySelector(firstRow)) {
        marks.firstRowAt = now;
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    document.addEventListener(
      'click',
      (e) => {
        const b = e.target instanceof Element ? e.target.closest('button') : null;
        if (marks.clickedAt === null && b && b.textContent.trim() === 'Make the dry run') marks.clickedAt = Date.now();
      },
      true,
    );
  })()`);
}

/**
 * Drive the app from the file picked to the first dry-run row. The app's time is the page's: from the file
 * picked to the first row in the DOM, less the time "Make the dry run" waited for the benchmark's click.
 */
async function appDryRun(page: Page, file: string, serverPid: number) {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('heading', { name: 'Import a workbook' }).waitFor();
  await watchSteps(page);
  const chooser = await openFileChooser(page, 'Choose workbook…');
  const watch = watchTree(serverPid, { resetHwm: true });
  const pickedAt = Date.now();
  await chooser.setFiles(file);
  // The Columns step when the app asks for one (its suggested or remembered mapping accepted), then the check.
  const dryRun = page.getByRole('button', { name: 'Make the dry run' });
  const apply = page.getByRole('button', { name: 'Check with these columns' });
  await dryRun.or(apply).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  const columnsStep = await apply.isVisible();
  if (columnsStep) {
    await apply.click();
    await dryRun.waitFor({ timeout: STEP_TIMEOUT_MS });
  }
  await dryRun.click();
  await page.locator(FIRST_ROW).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  const waitedAt = Date.now();
  watch.poll();
  const peak = watch.stop();
  const m = (await page.evaluate('window.__benchMarks')) as PageMarks;
  if (m.checkShownAt === null || m.clickedAt === null || m.overviewAt === null || m.firstRowAt === null)
    throw new Error(`a step of the dry run was not seen in the page: ${JSON.stringify(m)}`);
  const clickWait = m.clickedAt - m.checkShownAt;
  // The page's calls of the app (POST /rpc/<procedure>) from the file picked on: when each started and took.
  const calls = (await page.evaluate(`performance
    .getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.startsWith('/rpc/'))
    .map((e) => ({
      call: new URL(e.name).pathname.slice(5),
      at: performance.timeOrigin + e.startTime,
      ms: e.responseEnd - e.startTime,
    }))`)) as { call: string; at: number; ms: number }[];
  const rpc = calls
    .filter((c) => c.at >= pickedAt - 5)
    .map((c) => ({ call: c.call, from_pick_s: seconds(c.at - pickedAt), s: seconds(c.ms) }));
  const runButton = (await page.getByRole('button', { name: /^Run the import/ }).textContent()) ?? '';
  const total = await page.getByRole('table', { name: 'Rows of the dry run' }).getAttribute('aria-rowcount');
  return {
    columns_step: columnsStep,
    /** from the file picked to the first dry-run row in the DOM, less the wait for the click */
    wall_s: seconds(m.firstRowAt - pickedAt - clickWait),
    /** the file picked → "Make the dry run" offered (upload, read + validate, the codes pass) */
    check_s: seconds(m.checkShownAt - pickedAt),
    /** "Make the dry run" offered → clicked by the benchmark (not counted) */
    click_wait_s: seconds(clickWait),
    /** the click → the dry run's overview in the DOM (import.plan) */
    plan_s: seconds(m.overviewAt - m.clickedAt),
    /** the overview → the first row in the DOM (import.planRows, rendering) */
    rows_s: seconds(m.firstRowAt - m.overviewAt),
    /** from the file picked to Playwright's wait for the first row returning, all included */
    outside_wall_s: seconds(waitedAt - pickedAt),
    dry_run_rows: total === null ? null : Number(total),
    /** the page's calls of the app from the file picked on (start after the pick, duration) */
    rpc,
    run_button: runButton.trim(),
    ...peak,
  };
}

export async function runAppDryRunBench(o: { rows: number }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-app-dry-run-'));
  const sb = await startSandboxProcess({ seed: 'demo' });
  try {
    // The renderer as `npm run start:web` builds it (dist-renderer/), before anything is measured.
    await buildRenderer(join(ROOT, 'dist-renderer'));
    const w = await seedResyncWorkbook({ rows: o.rows, dir, sandbox: sb, label: 'app dry-run bench' });
    const appConfig = join(dir, 'app-config');
    await saveAppProfile(appConfig, sb.url, sb.key);
    await requestsSince(sb.url, await requestMark(sb.url));
    await control(sb.url, 'PUT', '/faults', { latency_ms: LATENCY_MS, jitter_ms: 0 });

    let mark = await requestMark(sb.url);
    const plan = await runCli(['plan', w.file, ...w.base], w.env);
    const planLog = await requestsSince(sb.url, mark);
    const planRequests = planLog.length;
    if (plan.code !== 0) throw new Error(`plan exited ${plan.code}: ${plan.stderr_tail}`);
    process.stdout.write(`CLI plan: ${plan.wall_s} s, peak ${plan.peak_mib} MiB\n`);

    const app = await startAppServer(appConfig);
    const context = await launchChromium(join(dir, 'chromium'));
    let figures;
    let appRequests;
    let appLog: LoggedRequest[] = [];
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto(app.url);
      mark = await requestMark(sb.url);
      figures = await appDryRun(page, w.file, app.child.pid!);
      appLog = await requestsSince(sb.url, mark);
      appRequests = appLog.length;
    } finally {
      await context.close();
      await app.stop();
      await control(sb.url, 'PUT', '/faults', { latency_ms: 0 });
    }
    const ratio = Math.round((figures.wall_s / plan.wall_s) * 100) / 100;
    const peakRatio = Math.round((figures.peak_mib / plan.peak_mib) * 100) / 100;
    const summary = {
      rows: w.rows,
      latency_ms: LATENCY_MS,
      cli_plan_s: plan.wall_s,
      cli_plan_peak_mib: plan.peak_mib,
      cli_plan_requests: planRequests,
      app_s: figures.wall_s,
      app_check_s: figures.check_s,
      app_plan_s: figures.plan_s,
      app_rows_s: figures.rows_s,
      app_click_wait_s: figures.click_wait_s,
      app_start_mib: figures.start_mib,
      app_peak_mib: figures.peak_mib,
      app_requests: appRequests,
      app_dry_run_rows: figures.dry_run_rows,
      ratio,
      goal_ratio: GOAL_RATIO,
      met: ratio <= GOAL_RATIO,
      peak_ratio: peakRatio,
      goal_peak_ratio: GOAL_PEAK_RATIO,
      peak_met: peakRatio <= GOAL_PEAK_RATIO,
    };
    table(`The app's dry run of ${w.rows.toLocaleString('en')} unchanged rows at L = ${LATENCY_MS} ms, browser mode`, [
      ['figure', 'app', 'CLI plan', 'app / CLI', 'goal', 'met'],
      [
        'file picked → first dry-run row, s',
        summary.app_s,
        summary.cli_plan_s,
        ratio,
        `≤ ${GOAL_RATIO}`,
        summary.met ? 'yes' : 'NO',
      ],
      [
        'peak RSS (server / CLI process tree), MiB',
        summary.app_peak_mib,
        summary.cli_plan_peak_mib,
        peakRatio,
        `≤ ${GOAL_PEAK_RATIO}`,
        summary.peak_met ? 'yes' : 'NO',
      ],
      ['requests', appRequests, planRequests, '', '', ''],
      ['app server before the file was picked, MiB', summary.app_start_mib, '', '', '', ''],
      [
        'app: check / dry run / first rows (click wait), s',
        `${summary.app_check_s} / ${summary.app_plan_s} / ${summary.app_rows_s} (${summary.app_click_wait_s})`,
        '',
        '',
        '',
        '',
      ],
    ]);
    return {
      options: o,
      summary,
      plan,
      app: figures,
      seed_s: w.seed_s,
      requests_by_path: { cli: byPath(planLog), app: byPath(appLog) },
    };
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '130000' }, quick: { type: 'boolean', default: false } },
  });
  // --quick: a smoke run at 5,000 rows, written as quick-app-dry-run-latest.json (never over a full run's figures)
  const quick = values.quick === true;
  const rows = quick ? 5000 : Number(values.rows);
  writeResult(quick ? 'quick-app-dry-run' : 'app-dry-run', await runAppDryRunBench({ rows }));
}
