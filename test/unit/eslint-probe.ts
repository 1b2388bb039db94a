/**
 * Lints a snippet as if it were a file of the repository, under the repository's eslint.config.js. Without type
 * information (the snippet's file need not exist; the type-aware rules are off) unless `typedFrom` names a
 * tsconfig whose program holds the file: then those rules run too, against that small program.
 */
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

export const ROOT = path.resolve(import.meta.dirname, '../..');

const TYPED_RULES = ['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises'];

export function probeLinter(typedFrom?: string): ESLint {
  const overrideConfig: Linter.Config = typedFrom
    ? {
        languageOptions: {
          parserOptions: {
            projectService: false,
            project: path.join(ROOT, typedFrom),
            // a single-run program (inferred under CI) reads the file from disk instead of the snippet
            disallowAutomaticSingleRunInference: true,
          },
        },
      }
    : {
        languageOptions: { parserOptions: { projectService: false, project: null } },
        rules: Object.fromEntries(TYPED_RULES.map((r) => [r, 'off'])),
      };
  return new ESLint({ cwd: ROOT, overrideConfig });
}

/** The errors of `code` as the file `file` (relative to the repository), as `rule: message`. */
export async function lintAs(eslint: ESLint, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}
