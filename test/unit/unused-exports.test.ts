/**
 * `npm run check:exports` looks at every folder of our sources: an export nothing imports, placed in the core, the
 * shell or the renderer, is reported and fails the check.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');

describe('check:exports', () => {
  it.each(['core/names-probe-dead.ts', 'electron/main/probe-dead.ts', 'renderer/src/probe-dead.ts'])(
    'reports a dead export in %s',
    (rel) => {
      const file = path.join(ROOT, rel);
      fs.writeFileSync(file, 'export const deadExportProbe = 1;\n');
      try {
        const r = spawnSync(process.execPath, ['scripts/unused-exports.mjs'], { cwd: ROOT, encoding: 'utf8' });
        expect(r.status).toBe(1);
        expect(r.stdout).toContain(`${rel}\tdeadExportProbe`);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  );
});
