/**
 * The unit tier's guard (test/unit-tier-guard.ts): with it on, a server that listens or a child process that
 * starts throws, named imports of node:child_process included. On already in the unit tier; the full suite turns
 * it on for this file only.
 */
import childProcess, { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardUnitTier } from '../unit-tier-guard.js';

describe('the unit tier guard', () => {
  let off: () => void;
  beforeAll(() => {
    off = guardUnitTier();
  });
  afterAll(() => off());

  it('refuses a server that listens', () => {
    const server = net.createServer();
    expect(() => server.listen(0)).toThrow(/a server listens .* in the unit tier/);
  });

  it('refuses a child process, by the module or by named import', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(/child_process\.spawn\) in the unit tier/);
    expect(() => execFileSync(process.execPath, ['--version'])).toThrow(/child_process\.execFileSync\)/);
    expect(() => childProcess.fork('x.js')).toThrow(/child_process\.fork\)/);
  });
});
