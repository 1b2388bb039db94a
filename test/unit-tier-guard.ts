/**
 * The unit tier's guard (vitest.unit.config.ts, `npm run test:unit`): its tests start no server, no child process
 * and no browser (Chromium and Electron start as child processes). With the guard on, starting one throws, so a
 * test that needs one fails at once instead of joining the tier; such a test runs with the full suite only.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const PROCESS_STARTS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'];
const GUARDED = Symbol('unit-tier guard');

const refuse = (what: string) =>
  Object.assign(
    () => {
      throw new Error(
        `${what} in the unit tier: its tests start no server, child process or browser. ` +
          'Run this test with the full suite only (leave it off the lists in vitest.unit.config.ts).',
      );
    },
    { [GUARDED]: true },
  );

/** Turns the guard on; the result turns it off again (a no-op when it was on already). */
export function guardUnitTier(): () => void {
  if (GUARDED in net.Server.prototype.listen) return () => {};
  const cp = childProcess as unknown as Record<string, unknown>;
  const listen = net.Server.prototype.listen;
  const starts = PROCESS_STARTS.map((name) => [name, cp[name]] as const);
  net.Server.prototype.listen = refuse('a server listens (net.Server.listen)');
  for (const name of PROCESS_STARTS) cp[name] = refuse(`a child process starts (child_process.${name})`);
  // the named imports of node:child_process (import { spawn } from ...) read the patched functions too
  syncBuiltinESMExports();
  return () => {
    net.Server.prototype.listen = listen;
    for (const [name, start] of starts) cp[name] = start;
    syncBuiltinESMExports();
  };
}
