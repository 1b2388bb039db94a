/**
 * A CLI run parses with zod's interpreted (jitless) mode once a command is loaded (cli/main.ts,
 * interpretedParsing): in a short process, compiling each object schema into a function costs more than it saves.
 * `--version` does not touch zod. The results are the same either way (the rest of the suite runs both).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDataset, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { cli, tmpDir } from './helpers.js';

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
});
