/** A job's LCA impact in the app: a job made against another service is neither read nor recomputed with this one. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LcaImpacts } from '../../core/app/sessions/lca-impacts.js';
import type { SessionServices } from '../../core/app/host.js';

const JOB = '20260101-120000-a1b2c3';
let dir: string;

const app = {
  settings: {},
  emit: () => {},
  log: { info: () => {}, warn: () => {}, error: () => {} },
} as unknown as SessionServices;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sl-impacts-'));
  await mkdir(path.join(dir, JOB), { recursive: true });
  await writeFile(
    path.join(dir, JOB, 'meta.json'),
    JSON.stringify({ format: 'supply-loader/job@1', jobId: JOB, status: 'completed', baseUrl: 'https://a.example/' }),
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LCA impact of a job on the active connection', () => {
  const other = { profileId: 'p', baseUrl: 'https://b.example', apiKey: 'k' };

  it('refuses to recompute a job made against another service, in words', async () => {
    const impacts = new LcaImpacts(app, dir);
    await expect(impacts.start(other, JOB)).rejects.toThrow(/another service \(https:\/\/a\.example\/\)/);
    const v = await impacts.view(async () => other, JOB, {});
    expect(v.recompute.state).toBe('idle');
  });

  it('does not find the affected instances on another service', async () => {
    const v = await new LcaImpacts(app, dir).view(async () => other, JOB, {});
    expect(v.affected).toBeNull();
    expect(v.affectedError).toMatch(/another service/);
    expect(v.recomputes).toBe(0);
    expect(v.report).toBeNull();
  });

  it('takes the same service with another spelling of its address', async () => {
    const same = { ...other, baseUrl: 'HTTPS://A.example' };
    const v = await new LcaImpacts(app, dir).view(async () => same, JOB, {});
    // past the service check: the plan is read next (none in this folder)
    expect(v.affectedError ?? '').not.toMatch(/another service/);
  });
});
