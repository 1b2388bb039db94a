/**
 * The layers hold through lint (eslint.config.js, `no-restricted-imports` per folder): a snippet placed in a
 * folder of core is linted as if it were a file there, so an import against the layers is an error,
 * type-only imports and re-exports included, and an import down the layers passes.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintAs as lintWith, probeLinter } from './eslint-probe.js';

let eslint: ESLint;

beforeAll(() => {
  eslint = probeLinter();
});

const lintAs = (file: string, code: string) => lintWith(eslint, file, code);

const restricted = (errors: string[]) => errors.filter((e) => e.startsWith('no-restricted-imports:'));

describe('layers (lint)', () => {
  it('the engine imports nothing of app/, value or type', async () => {
    const value = await lintAs(
      'core/jobs/layer-probe.ts',
      "import { findJob } from '../app/jobs.js';\nexport const probe = findJob;\n",
    );
    expect(restricted(value)).toHaveLength(1);
    expect(value[0]).toMatch(/app\/ is above the engine/);
    const typeOnly = await lintAs(
      'core/jobs/plan/layer-probe.ts',
      "import type { AppServices } from '../../app/services.js';\nexport type Probe = AppServices;\n",
    );
    expect(restricted(typeOnly)).toHaveLength(1);
    const reExport = await lintAs('core/lca/layer-probe.ts', "export { AppError } from '../app/errors.js';\n");
    expect(restricted(reExport)).toHaveLength(1);
  });

  it('app/ imports nothing of the adapters (ipc/, cli/), value or type', async () => {
    const value = await lintAs(
      'core/app/layer-probe.ts',
      "import { toRpcError } from '../ipc/errors.js';\nexport const probe = toRpcError;\n",
    );
    expect(restricted(value)).toHaveLength(1);
    expect(value[0]).toMatch(/adapters \(cli\/, ipc\/\) are the top layer/);
    const typeOnly = await lintAs(
      'core/app/layer-probe.ts',
      "import type { HandlerTable } from '../ipc/contract.js';\nexport type Probe = HandlerTable<unknown>;\n",
    );
    expect(restricted(typeOnly)).toHaveLength(1);
    const cli = await lintAs('core/app/layer-probe.ts', "export { EXIT } from '../cli/types.js';\n");
    expect(restricted(cli)).toHaveLength(1);
  });

  it('passes imports down the layers', async () => {
    expect(
      await lintAs(
        'core/app/layer-probe.ts',
        [
          "import type { JobView } from '../contract/index.js';",
          "import { runJob } from '../jobs/run.js';",
          "import { AppError } from './errors.js';",
          'export type Probe = JobView;',
          'export const probe = [runJob, AppError];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await lintAs(
        'core/ipc/handlers/layer-probe.ts',
        "import { findJob } from '../../app/jobs.js';\nimport type { JobView } from '../../contract/index.js';\nexport type Probe = JobView;\nexport const probe = findJob;\n",
      ),
    ).toEqual([]);
    expect(
      await lintAs(
        'core/jobs/layer-probe.ts',
        "import type { ApiClient } from '../api/index.js';\nexport type Probe = ApiClient;\n",
      ),
    ).toEqual([]);
  });

  it('keeps the client off the engine, the spec off everything above, the contract off app/, the IPC and the CLI off the engine and electron out of the core', async () => {
    const cases: [string, string][] = [
      ['core/api/layer-probe.ts', "export type { PlanEntry } from '../jobs/types.js';\n"],
      ['core/api/resources/layer-probe.ts', "export { readWorkbook } from '../../workbook/reader.js';\n"],
      ['core/spec/layer-probe.ts', "export type { ApiClient } from '../api/index.js';\n"],
      ['core/contract/layer-probe.ts', "export type { AppServices } from '../app/services.js';\n"],
      ['core/workbook/layer-probe.ts', "export type { JobView } from '../contract/index.js';\n"],
      ['core/ipc/handlers/layer-probe.ts', "export { runJob } from '../../jobs/run.js';\n"],
      // the CLI is an adapter like the IPC: planning, runs, LCA and export only through app/, types included
      ['core/cli/commands/layer-probe.ts', "export { runJob } from '../../jobs/run.js';\n"],
      ['core/cli/layer-probe.ts', "export type { LcaReport } from '../lca/index.js';\n"],
      ['core/cli/layer-probe.ts', "export { exportCollection } from '../export/index.js';\n"],
      ['sandbox/layer-probe.ts', "export type { ApiClient } from '../core/api/index.js';\n"],
      // and nothing under core or sandbox imports electron (the shell injects it)
      ['core/app/layer-probe.ts', "export { app } from 'electron';\n"],
      ['sandbox/layer-probe.ts', "export { app } from 'electron';\n"],
    ];
    for (const [file, code] of cases) expect(restricted(await lintAs(file, code)), file).toHaveLength(1);
  });
});
