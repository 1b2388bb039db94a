/** The IPC tests' app: browser mode on port 0 with an embedded sandbox, a private config folder and typed calls. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBrowserMode, type BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureName } from '../../core/contract/names.js';
import type { Logger } from '../../core/app/services.js';
import { startSandbox } from '../../sandbox/index.js';

export const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** A started app and the temporary folder it keeps its config (and the test its files) in. */
export async function startTestApp(prefix: string): Promise<{ mode: BrowserMode; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const mode = await startBrowserMode({
    port: 0,
    staticDir: null,
    configDir: path.join(dir, 'config'),
    startSandbox,
    log: quiet,
    appVersion: 'test',
  });
  return { mode, dir };
}

export async function stopTestApp(mode: BrowserMode | undefined, dir: string | undefined): Promise<void> {
  await mode?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** A procedure through the contract's dispatch (validated input and output); throws with the error's words. */
export async function rpc<N extends ProcedureName>(
  mode: BrowserMode,
  name: N,
  input: ProcedureInput<N>,
): Promise<ProcedureOutput<N>> {
  const r = await dispatch(name, input, mode.app);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as ProcedureOutput<N>;
}

/** The job once it no longer runs (jobs.get polled every 50 ms); throws when it still runs after `timeoutMs`. */
export async function settledJob(
  mode: BrowserMode,
  jobId: string,
  timeoutMs = 30_000,
): Promise<ProcedureOutput<'jobs.get'>> {
  const t0 = Date.now();
  for (;;) {
    const v = await rpc(mode, 'jobs.get', { jobId });
    if (!v.running) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`job ${jobId} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
