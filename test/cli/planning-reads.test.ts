/**
 * `import --concurrency N` limits the job's writes to N; the planner's reads still go side by side up to the
 * client's default (16): with N = 2 the planning reads of a workbook over every sheet (the walks beside the read,
 * the rest once it is read) are one round trip, not five. Checked with a service latency far above the time it takes to send them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { clearRequests, cli, control, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

const LATENCY = 600;
let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-planning-reads-');
});
afterAll(async () => {
  await control(sb, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 }).catch(() => {});
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('planning reads at a small --concurrency', () => {
  it('all sent before the first answer; the writes never more than N at a time', async () => {
    const file = path.join(dir, 'all-sheets.xlsx');
    await writeDataWorkbook(file, buildDataset(sizeForRows(25), 'PRD'));
    await clearRequests(sb);
    await control(sb, 'PUT', '/faults', {
      latency_ms: LATENCY,
      jitter_ms: 0,
      error_rate: 0,
      reset_after_commit_rate: 0,
    });
    const r = await cli(['import', file, '--concurrency', '2'], {
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
      jobsDir: path.join(dir, 'jobs'),
    });
    await control(sb, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });
    expect(r.code, r.stderr).toBe(0);
    const log = (await requests(sb)).filter((q) => q.path.startsWith('/v2/'));
    const firstWrite = log.findIndex((q) => q.method !== 'GET');
    const reads = log.slice(0, firstWrite);
    expect(reads.length).toBeGreaterThan(4); // more planning reads than N
    const at = reads.map((q) => Date.parse(q.at)).sort((a, b) => a - b);
    // /v2/me and the walks go out beside the read of the workbook, the other reads once it is read (however long
    // reading takes on a busy machine): at most these two waves, each sent at once — none waited for another's
    // answer — and more than N reads in one of them.
    const waves: number[][] = [];
    for (const t of at) {
      const last = waves[waves.length - 1];
      if (last && t - last[last.length - 1] < LATENCY / 2) last.push(t);
      else waves.push([t]);
    }
    expect(waves.length, JSON.stringify(waves)).toBeLessThanOrEqual(2);
    for (const w of waves) expect(w[w.length - 1] - w[0]).toBeLessThan(LATENCY / 2);
    expect(Math.max(...waves.map((w) => w.length))).toBeGreaterThan(4);
    // while no more than N = 2 writes are in flight: any third write arrives an answer (the latency) after the first
    const writes = log
      .slice(firstWrite)
      .filter((q) => q.method !== 'GET')
      .map((q) => Date.parse(q.at));
    expect(writes.length).toBeGreaterThan(4);
    for (let i = 2; i < writes.length; i++) expect(writes[i] - writes[i - 2]).toBeGreaterThanOrEqual(LATENCY - 5);
  }, 120_000);
});
