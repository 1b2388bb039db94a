/**
 * The dry run reads the affected instances' current LCA results ("before"); a run of the import started while that
 * read is under way waits for it, so the job never writes before the "before" results are read.
 */
import { describe, expect, it, vi } from 'vitest';
import type { LcaImpactDryRun } from '../../core/app/lca-impact.js';
import { runSession } from '../../core/app/sessions/import-run.js';
import { LcaImpacts } from '../../core/app/sessions/lca-impacts.js';
import type { SessionServices } from '../../core/app/host.js';
import type { AppServices } from '../../core/app/services.js';

const held = vi.hoisted(() => ({ release: (): void => {}, started: false }));

vi.mock('../../core/app/lca-impact.js', async (original) => ({
  ...(await original<typeof import('../../core/app/lca-impact.js')>()),
  prepareLcaImpact: () =>
    new Promise<LcaImpactDryRun>((resolve) => {
      held.started = true;
      held.release = () =>
        resolve({
          affected: { instances: [], byPlant: [], bomsRead: 0, unchecked: [] },
          before: { instances: 0, completed: 0, problems: [] },
          estimates: { note: '', estimates: [], not_estimated: [] },
          recomputes: 0,
        } as unknown as LcaImpactDryRun);
    }),
}));

vi.mock('../../core/app/profiles.js', async (original) => ({
  ...(await original<typeof import('../../core/app/profiles.js')>()),
  resolveConnection: async () => ({ profileId: 'p', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }),
}));

const JOB = '20260101-120000-a1b2c3';
const tick = () => new Promise((r) => setTimeout(r, 20));

describe('a run during the dry run’s read of the current LCA results', () => {
  it('starts the job only once the read finished', async () => {
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const impacts = new LcaImpacts({ log } as unknown as SessionServices, '/nonexistent');
    const order: string[] = [];
    const app = {
      log,
      settings: { snapshot: () => ({ activeProfileId: 'p' }) },
      sessions: {
        impacts,
        imports: {
          get: () => ({
            plan: { summary: { byAction: {} } },
            planInfo: { profileId: 'p', profileName: 'P' },
            planned: { jobId: JOB, jobsDir: '/nonexistent', adopted: false },
            inputPath: 'x.xlsx',
            csvSources: [],
          }),
        },
        jobs: {
          jobsDir: '/nonexistent',
          start: async () => {
            order.push('job started');
          },
        },
      },
    } as unknown as AppServices;

    const dry = impacts.dryRun(async () => ({ profileId: 'p', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }), JOB);
    const run = runSession(app, 'imp', false);
    await tick();
    expect(held.started).toBe(true);
    expect(order).toEqual([]);

    order.push('before read');
    held.release();
    await dry;
    expect(await run).toBe(JOB);
    expect(order).toEqual(['before read', 'job started']);
  });
});
