/**
 * A CLI run parses with zod's interpreted (jitless) mode once a command is loaded (cli/main.ts,
 * interpretedParsing): in a short process, compiling each object schema into a function costs more than it saves.
 * `--version` does not touch zod. The results are the same either way (the rest of the suite runs both).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDataset, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { BIN, cli, sandbox, tmpDir } from './helpers.js';

describe("the CLI's zod mode", () => {
  it('--version leaves it as it is; a command (validate) sets the interpreted mode, and validates as before', async () => {
    expect(z.config().jitless).toBeFalsy();
    expect((await cli(['--version'])).code).toBe(0);
    expect(z.config().jitless).toBeFalsy();
    const file = join(tmpDir(), 'small.xlsx');
    await writeDataWorkbook(file, buildDataset(sizeForRows(40), 'ZOD'));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(0);
    expect(z.config().jitless).toBe(true);
  });

  it('the installed CLI compiles no schema in an import: the mode is set before the command builds its schemas', async () => {
    const dir = tmpDir();
    const file = join(dir, 'small.xlsx');
    await writeDataWorkbook(file, buildDataset(sizeForRows(40), 'ZODJ'));
    // zod compiles a schema into a function made from text (new Function) whose body works on the `payload`.
    const counter = join(dir, 'count-compiled.cjs');
    writeFileSync(
      counter,
      `let n = 0;
const count = (a) => { if (String(a[a.length - 1] ?? '').includes('payload')) n++; };
globalThis.Function = new Proxy(globalThis.Function, {
  construct(t, a) { count(a); return Reflect.construct(t, a); },
  apply(t, s, a) { count(a); return Reflect.apply(t, s, a); },
});
process.on('exit', () => process.stderr.write('schemas-compiled ' + n + '\\n'));`,
    );
    const sb = await sandbox('demo');
    try {
      // Not spawnSync: the sandbox answers from this process.
      const child = spawn(process.execPath, ['--require', counter, BIN, 'import', file, '--base-url', sb.baseUrl], {
        cwd: tmpdir(),
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          SUPPLY_LOADER_API_KEY: sb.ownerKey,
          SUPPLY_LOADER_JOBS_DIR: join(dir, 'jobs'),
          SUPPLY_LOADER_CONFIG_DIR: join(dir, 'config'),
        },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const status = await new Promise<number | null>((res) => child.on('exit', res));
      const r = { status, stderr };
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^schemas-compiled 0$/m);
    } finally {
      await sb.close();
    }
  });
});
