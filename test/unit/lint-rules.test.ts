/**
 * The lint rules that find real bugs (eslint.config.js): a promise nobody awaits or hands to a void callback
 * (type-aware, every TypeScript file) and the rules of hooks with complete effect dependencies (renderer/).
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintAs, probeLinter } from './eslint-probe.js';

const rules = (errors: string[]) => errors.map((e) => e.slice(0, e.indexOf(':')));

describe('promises (type-aware lint)', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = probeLinter('test/fixtures/lint/tsconfig.json');
  });

  it('a promise left floating is an error; awaited, or voided with its rejection handled, it passes', async () => {
    const save = 'export async function save(): Promise<void> {}\n';
    expect(rules(await lintAs(eslint, 'test/fixtures/lint/probe.ts', `${save}save();\n`))).toEqual([
      '@typescript-eslint/no-floating-promises',
    ]);
    const handled = `${save}export async function both(): Promise<void> {\n  await save();\n  void save().catch(() => {});\n}\n`;
    expect(await lintAs(eslint, 'test/fixtures/lint/probe.ts', handled)).toEqual([]);
  });

  it('an async function where a void callback is expected is an error', async () => {
    const code = '[1, 2].forEach(async (n) => {\n  await Promise.resolve(n);\n});\n';
    expect(rules(await lintAs(eslint, 'test/fixtures/lint/probe.ts', code))).toEqual([
      '@typescript-eslint/no-misused-promises',
    ]);
    const onClick = [
      'export async function save(): Promise<void> {}',
      'export const A = () => <button onClick={async () => save()}>a</button>;',
      'export const B = () => <button onClick={() => void save().catch(() => {})}>b</button>;',
      '',
    ].join('\n');
    expect(rules(await lintAs(eslint, 'test/fixtures/lint/component.tsx', onClick))).toEqual([
      '@typescript-eslint/no-misused-promises',
    ]);
  });
});

describe('hooks (renderer lint)', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = probeLinter();
  });
  const file = 'renderer/src/hooks-probe.tsx';
  const imports = (...hooks: string[]) => `import { ${hooks.join(', ')} } from 'react';\n`;

  it('a hook called conditionally is an error', async () => {
    const code = `${imports('useState')}export function P({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n`;
    expect(rules(await lintAs(eslint, file, code))).toEqual(['react-hooks/rules-of-hooks']);
  });

  it('an effect missing a dependency is an error; with it, it passes', async () => {
    const effect = (deps: string) =>
      `${imports('useEffect')}export function P({ id }: { id: string }) {\n  useEffect(() => {\n    console.log(id);\n  }, [${deps}]);\n  return null;\n}\n`;
    expect(rules(await lintAs(eslint, file, effect('')))).toEqual(['react-hooks/exhaustive-deps']);
    expect(await lintAs(eslint, file, effect('id'))).toEqual([]);
  });
});
