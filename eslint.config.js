import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const NO_ELECTRON = { name: 'electron', message: 'core, sandbox and renderer have no electron import' };

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist-electron/**',
      'dist-renderer/**',
      'dist-cli/**',
      'dist-web/**',
      'release/**',
      'test-artifacts/**',
      'bench/results/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-control-regex': 'off',
    },
  },
  {
    // CommonJS scripts (the bin and what it runs before the bundle: no ES module loader at start) require.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Type-aware rules that find real bugs: a promise nobody awaits loses its rejection and its ordering; a promise
    // where a void callback is expected (an event handler, a forEach) does the same. One program for the whole
    // tree (tsconfig.json), which `eslint .` builds faster than the project service.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The renderer must never import electron (core and sandbox: below, with their layers).
    files: ['renderer/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }] },
  },
  ...layerRules(),
);

/**
 * The layers (docs/architecture.md "Layers"): each folder's files import only from the layers below them, type-only
 * imports and re-exports included (`no-restricted-imports` checks every import and export declaration).
 *
 *   adapters   cli/, ipc/ (handlers/ and the transport), electron/main, electron/preload
 *   app        app/
 *   contract   contract/ (the renderer ↔ main contract: schemas and views, no behaviour)
 *   engine     jobs/, lca/, export/, workbook/, settings/
 *   client     api/
 *   base       spec/, names.ts, fs/, throttle.ts
 *
 * Adapters call app/ for the work; they may still read workbooks and settings (workbook/, settings/) and build
 * the host's services, but not plan, run, undo, export or compute (jobs/, lca/, export/). app/ and the adapters
 * take the contract's views from contract/, which sits above the engine's schemas only. The sandbox (an API v2
 * implementation) shares only the spec and the small fs helpers with the core.
 */
function layerRules() {
  /** An import of core/<folder>, from anywhere under electron/ or from sandbox/. */
  const core = (...folders) => `^(\\.\\./)+(electron/)?(core/)?(${folders.join('|')})(/|\\.js$)`;
  const shell = '^(\\.\\./)+(main|preload)/';
  const rule = (forbidden, extraPatterns = []) => ({
    'no-restricted-imports': [
      'error',
      {
        paths: [NO_ELECTRON],
        patterns: [...forbidden.map(([folders, message]) => ({ regex: core(...folders), message })), ...extraPatterns],
      },
    ],
  });
  const ADAPTERS = [['cli', 'ipc'], 'adapters (cli/, ipc/) are the top layer: nothing below imports them'];
  const SHELL = {
    regex: shell,
    message: 'electron/main and electron/preload are the shell: nothing below imports them',
  };
  const APP = [['app'], 'app/ is above the engine, the contract, the client and the spec: only adapters import it'];
  const CONTRACT = [
    ['contract'],
    'contract/ is the views of the app layer: the engine, the client and the spec do not import it',
  ];
  const ENGINE = [['jobs', 'lca', 'export', 'workbook', 'settings'], 'the engine is above the client and the spec'];
  const WORK = [
    ['jobs', 'lca', 'export'],
    'an adapter reaches planning, runs, undo, LCA and export through app/ (core/app/)',
  ];
  const CLIENT = [['api'], 'api/ (the client) is above the spec and the shared modules'];
  const SPEC = [
    ['spec'],
    'the small shared modules (names.ts, fs/, throttle.ts) sit beside spec/ and import neither it nor anything above',
  ];
  const SANDBOX = {
    regex: '^(\\.\\./)+sandbox/',
    message: 'the sandbox is a separate program: the core reaches it only through the adapters',
  };
  return [
    {
      files: ['core/spec/**'],
      rules: rule([ADAPTERS, APP, CONTRACT, ENGINE, CLIENT], [SHELL, SANDBOX]),
    },
    {
      files: ['core/names.ts', 'core/throttle.ts', 'core/fs/**'],
      rules: rule([ADAPTERS, APP, CONTRACT, ENGINE, CLIENT, SPEC], [SHELL, SANDBOX]),
    },
    {
      files: ['core/api/**'],
      rules: rule([ADAPTERS, APP, CONTRACT, ENGINE], [SHELL, SANDBOX]),
    },
    {
      files: ['core/{jobs,lca,export,workbook,settings}/**'],
      rules: rule([ADAPTERS, APP, CONTRACT], [SHELL, SANDBOX]),
    },
    {
      files: ['core/contract/**'],
      rules: rule([ADAPTERS, APP, WORK, CLIENT], [SHELL, SANDBOX]),
    },
    {
      files: ['core/app/**'],
      rules: rule([ADAPTERS], [SHELL]),
    },
    {
      files: ['core/ipc/**'],
      rules: rule(
        [[['cli'], 'the IPC and the CLI are two adapters: what both need lives in app/ or below'], WORK],
        [SHELL],
      ),
    },
    {
      files: ['core/cli/**'],
      rules: rule(
        [[['ipc'], 'the IPC and the CLI are two adapters: what both need lives in app/ or below'], WORK],
        [SHELL],
      ),
    },
    {
      files: ['electron/main/**', 'electron/preload/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: core('cli', 'jobs', 'lca', 'export'),
                message: 'the shell builds the services and serves the IPC: the work is in app/',
              },
            ],
          },
        ],
      },
    },
    {
      files: ['sandbox/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [NO_ELECTRON],
            patterns: [
              {
                regex: '^(\\.\\./)+(electron/|core/(?!(spec|fs)/))',
                message: 'the sandbox shares only spec/ and fs/ with the core (it is the service, not a client of it)',
              },
            ],
          },
        ],
      },
    },
  ];
}
