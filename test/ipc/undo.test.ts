/**
 * Undo a job from the Jobs screen, through dispatch() against the in-process sandbox:
 * jobs.undoPlan shows the undo's own dry run (created → deleted, updated → set back, deleted → re-created),
 * jobs.undo runs it as a job of its own listed as the undo of the first; a row changed on the service since the
 * job is a conflict that blocks the undo unless the user undoes the rest.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { resolveConnection } from '../../core/app/profiles.js';
import { writeTestWorkbook, type SheetData } from '../jobs/helpers.js';
import { problemText } from '../../renderer/src/screens/import/issueText.js';
import { rpc, startTestApp, stopTestApp, settledJob } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let client: ApiClient;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

const settled = (jobId: string) => settledJob(mode, jobId);

async function importWorkbook(name: string, data: SheetData) {
  const p = path.join(dir, name);
  await writeTestWorkbook(p, data);
  const f = mode.app.files.registerPath(p);
  const v = await call('import.validate', { fileId: f.fileId });
  const plan = await call('import.plan', { importId: v.importId, createOnly: false });
  expect(plan.blocked).toBe(0);
  const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
  const done = await settled(jobId);
  expect(done.status).toBe('completed');
  return jobId;
}

const company = (code: string) => client.supplierCompanies.findByExternalId(code);

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-undo-ipc-'));
  const conn = await resolveConnection(mode.app);
  client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
});
afterAll(async () => {
  await client?.close();
  await stopTestApp(mode, dir);
});

describe('jobs.undoPlan and jobs.undo', () => {
  it('shows the undo’s dry run, runs it as a job listed as the undo of the first, and puts the service back', async () => {
    await importWorkbook('base.xlsx', {
      'supplier-companies': [
        { external_id: 'UI-A', name: 'Alpha GmbH' },
        { external_id: 'UI-B', name: 'Beta AG' },
      ],
    });
    const b = await company('UI-B');
    const second = await importWorkbook('second.xlsx', {
      'supplier-companies': [
        { external_id: 'UI-A', name: 'Alpha Renamed' },
        { external_id: 'UI-B', action: 'delete' },
        { external_id: 'UI-C', name: 'Gamma KG' },
      ],
    });
    expect(await company('UI-B')).toBeNull();

    const dry = await call('jobs.undoPlan', { jobId: second });
    expect(dry.jobId).toBe(second);
    expect(dry.blocked).toBe(0);
    expect(dry.summary.byAction).toMatchObject({ update: 1, create: 1, delete: 1 });
    expect(dry.writes).toBe(3);
    const byCode = new Map(dry.rows.map((r) => [r.externalId, r]));
    expect(byCode.get('UI-C')?.action).toBe('delete');
    // a delete names the entity it removes
    expect(byCode.get('UI-C')?.fields).toEqual([{ field: 'name', value: 'Gamma KG' }]);
    expect(byCode.get('UI-A')?.changes).toEqual([{ field: 'name', before: 'Alpha Renamed', after: 'Alpha GmbH' }]);
    const recreate = byCode.get('UI-B')!;
    expect(recreate.action).toBe('create');
    expect(recreate.fields).toContainEqual({ field: 'name', value: 'Beta AG' });
    expect(recreate.notes.join(' ')).toMatch(/new id/);
    // a dry run sends nothing
    expect((await company('UI-C'))?.name).toBe('Gamma KG');

    const { jobId: undoId } = await call('jobs.undo', { jobId: second, skipBlocked: false });
    const undone = await settled(undoId);
    expect(undone.status).toBe('completed');
    expect(undone.undoes).toBe(second);
    const listed = (await call('jobs.list', {})).jobs.find((j) => j.jobId === undoId);
    expect(listed?.undoes).toBe(second);
    expect((await call('jobs.list', {})).jobs.find((j) => j.jobId === second)?.undoes).toBeNull();

    expect((await company('UI-A'))?.name).toBe('Alpha GmbH');
    const b2 = await company('UI-B');
    expect(b2?.name).toBe('Beta AG');
    expect(b2?.id).not.toBe(b?.id);
    expect(await company('UI-C')).toBeNull();
  });

  it('lists a row changed on the service since the job as a conflict that blocks the undo unless the rest is undone', async () => {
    const job = await importWorkbook('conflict.xlsx', {
      'supplier-companies': [
        { external_id: 'UC-1', name: 'Eins' },
        { external_id: 'UC-2', name: 'Zwei' },
      ],
    });
    const c1 = (await company('UC-1'))!;
    await client.supplierCompanies.update(c1.id, { name: 'Eins (edited by someone)' });

    const dry = await call('jobs.undoPlan', { jobId: job });
    expect(dry.blocked).toBe(1);
    expect(dry.rows[0]).toMatchObject({ externalId: 'UC-1', action: 'conflict' });
    expect(dry.rows[0].problems[0].message).toMatch(/changed on the service since job .*: name/);
    // the app words it from its code and params: in German, the field by its label
    expect(problemText(dry.rows[0].problems[0], 'de')).toBe(`Seit Auftrag ${job} im Dienst geändert: Bezeichnung`);

    const refused = await dispatch('jobs.undo', { jobId: job, skipBlocked: false }, mode.app);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/conflicts/);
    expect(await company('UC-2')).not.toBeNull(); // nothing sent

    const { jobId: undoId } = await call('jobs.undo', { jobId: job, skipBlocked: true });
    expect((await settled(undoId)).status).toBe('completed');
    expect(await company('UC-2')).toBeNull();
    expect((await company('UC-1'))?.name).toBe('Eins (edited by someone)');
  });

  it('refuses, in words, the undo of a job that does not exist', async () => {
    const r = await dispatch('jobs.undoPlan', { jobId: '20200101-000000-abcdef' }, mode.app);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/no job 20200101-000000-abcdef/);
  });
});
