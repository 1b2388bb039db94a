#!/usr/bin/env node
/**
 * Build the CLI bundle: core/cli/main.ts and everything it imports (the embedded sandbox and the npm
 * packages too) as one CommonJS module under dist-cli/ (BUNDLE_FILE), so `supply-loader` starts without compiling
 * TypeScript (the bin compiles it through V8's code cache, scripts/load-cli.cjs); beside it the few packages and
 * tables a command loads only now and then (VENDOR_CHUNKS, iconv-lite's tables). Runs on `npm install` / `npm ci`
 * (the `prepare` script) and, when a source is newer than the bundle, from the bin, bin/supply-loader.cjs (see docs/cli.md,
 * "Start-up"). Each command's modules still run only when it is used: `--version` runs a few kB of it,
 * `validate` the reader, `import` the client too; exceljs's parts load when first used (LAZY_REWRITES).
 *
 * Each build goes to its own folder dist-cli/<build>/ and only then becomes the current one by renaming
 * dist-cli/current.json into place, so a process starting meanwhile runs the old or the new build whole, and a
 * running process never has its chunks replaced under it (several CLI processes may rebuild at once).
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE, DIST, ROOT } from './cli-bundle.cjs';

const WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})'];
/** Builds other than the current one are removed once this old (a CLI run may still load chunks from one). */
const KEEP_OLD_MS = 24 * 3600_000;

/**
 * undici's HTTP/2 client (dispatcher/client-h2.js) is left out of the bundle: loading it loads Node's http2
 * module, ~10 ms of every start of a command that talks to the service. undici connects over
 * HTTP/2 only when a connection's TLS handshake agrees on it (ALPN), which it offers only with `allowH2`, and the
 * client never sets that (core/api/transport.ts). Should a connection ever come up as HTTP/2 anyway,
 * the stub fails it with an error that says so, as any failed connection is told; it never goes unnoticed.
 */
export const HTTP2_STUB_MESSAGE = 'HTTP/2 is not part of the Supply Loader CLI bundle (the client speaks HTTP/1.1)';
const withoutHttp2Client = {
  name: 'without-undici-http2-client',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: `module.exports = function connectH2 () { throw new Error(${JSON.stringify(HTTP2_STUB_MESSAGE)}) }`,
      loader: 'js',
    }));
  },
};

/**
 * Packages a command needs only now and then, each built into a script of its own beside the bundle and loaded
 * (plain `require`) the first time it is used: SheetJS (@e965/xlsx, only for .xls/.ods/.html/… sources) and fastify
 * with its schema compilers and logger (only for `sandbox`). They are ~1.3 MB of the bundle's text that every other
 * start would otherwise read, hash and keep in memory (a start reads and holds the whole bundle, see
 * scripts/load-cli.cjs). Imported from our own code only; no object of theirs is shared with another copy.
 */
export const VENDOR_CHUNKS = { '@e965/xlsx': 'vendor-xlsx', fastify: 'vendor-fastify' };
const vendorChunks = {
  name: 'vendor-chunks',
  setup(b) {
    const filter = new RegExp(
      `^(${Object.keys(VENDOR_CHUNKS)
        .map((n) => n.replace(/[/.]/g, (c) => `\\${c}`))
        .join('|')})$`,
    );
    b.onResolve({ filter }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: `./${VENDOR_CHUNKS[args.path]}.cjs`, external: true },
    );
  },
};

/**
 * What a command loads before it reads or writes a workbook stays small; exceljs's and its zip reader's parts
 * are evaluated when first used (each exactly as the package has it, only later):
 * - exceljs's entry evaluates its whole tree at once: the streaming reader (unzipper, bluebird, big-integer,
 *   fstream, glob), the streaming writer (archiver and its glob and lodash parts), and the in-memory Workbook
 *   (jszip, fast-csv, dayjs). Its entry here is the same object with each part required on first access, so
 *   `import` loads the reader when it reads and the writer when it writes the results, not at its start.
 * - unzipper (the streaming reader's zip parser) evaluates Open, Extract and ParseOne with Parse; only Parse is
 *   used, the others are required on first access.
 * - binary (unzipper's header parser) requires chainsaw at its top for its stream API, which pulls traverse and
 *   its ECMAScript shims (es-abstract, ~90 modules); unzipper uses only binary.parse, so chainsaw is required
 *   when a stream API is first used.
 * Each rewrite checks that the package's text is what it expects; if not (another version), the file is
 * bundled as it is (test/cli/bundle.test.ts tells).
 */
/** exceljs's entry (lib/exceljs.nodejs.js): its parts, each required from the package when first used. */
const EXCELJS_PARTS = {
  Workbook: './doc/workbook',
  ModelContainer: './doc/modelcontainer',
  WorkbookWriter: './stream/xlsx/workbook-writer',
  WorkbookReader: './stream/xlsx/workbook-reader',
};
/** What the entry's text holds for the stand-in to be the same object (another exceljs version is used as it is). */
export const EXCELJS_ENTRY_EXPECT = [
  ...Object.entries(EXCELJS_PARTS).map(([k, p]) => `${k}: require('${p}')`),
  "Object.assign(ExcelJS, require('./doc/enums'));",
];

/**
 * The stand-in for exceljs's entry: the same object, each part required when first used. `from` names a part
 * as the stand-in requires it (relative, bundled in its place; or `exceljs/lib/…` from outside the package);
 * `exported` is the line that exports it.
 */
export function lazyExceljsEntry(from, exported) {
  const part = (o, k) => `part(${o}, '${k}', () => require(${JSON.stringify(from(EXCELJS_PARTS[k]))}));`;
  return `const part = (o, k, get) => Object.defineProperty(o, k, { enumerable: true, configurable: true, get });
const xlsx = {};
${part('xlsx', 'WorkbookWriter')}
${part('xlsx', 'WorkbookReader')}
const ExcelJS = { stream: { xlsx } };
${part('ExcelJS', 'Workbook')}
${part('ExcelJS', 'ModelContainer')}
Object.assign(ExcelJS, require(${JSON.stringify(from('./doc/enums'))}));
${exported}
`;
}

const LAZY_REWRITES = [
  {
    file: /[\\/]exceljs[\\/]lib[\\/]exceljs\.nodejs\.js$/,
    expect: EXCELJS_ENTRY_EXPECT,
    contents: lazyExceljsEntry((part) => part, 'module.exports = ExcelJS;'),
  },
  {
    file: /[\\/]unzipper[\\/]unzip\.js$/,
    expect: [
      "exports.Parse = require('./lib/parse');",
      "exports.ParseOne = require('./lib/parseOne');",
      "exports.Extract = require('./lib/extract');",
      "exports.Open = require('./lib/Open');",
    ],
    contents: `'use strict';
require('listenercount');
require('buffer-indexof-polyfill');
require('setimmediate');
const part = (k, get) => Object.defineProperty(exports, k, { enumerable: true, configurable: true, get });
part('Parse', () => require('./lib/parse'));
part('ParseOne', () => require('./lib/parseOne'));
part('Extract', () => require('./lib/extract'));
part('Open', () => require('./lib/Open'));
`,
  },
  {
    file: /[\\/]node_modules[\\/]binary[\\/]index\.js$/,
    expect: ["var Chainsaw = require('chainsaw');", 'Chainsaw.light(builder)'],
    edit: (text) =>
      text.replace(
        "var Chainsaw = require('chainsaw');",
        `var Chainsaw = { light: function () { var c = require('chainsaw'); return c.light.apply(c, arguments); } };`,
      ),
  },
];
const lazyParts = {
  name: 'lazy-parts',
  setup(b) {
    for (const r of LAZY_REWRITES)
      b.onLoad({ filter: r.file }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!r.expect.every((e) => text.includes(e))) return undefined;
        return { contents: r.contents ?? r.edit(text), loader: 'js', resolveDir: path.dirname(args.path) };
      });
  },
};

/**
 * zod's namespace object carries every locale (`z.locales`, ~300 kB of the bundle); the CLI uses English only, which
 * zod sets itself (its classic schemas import the English locale directly). `z.locales` is an empty object here.
 */
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'supply-loader-empty' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'supply-loader-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * iconv-lite's tables of the East Asian double-byte encodings (~480 kB of JSON) are required by its codecs only
 * when such an encoding is first used: they are copied beside the bundle as files and required from there then.
 */
const iconvTablesAsFiles = {
  name: 'iconv-tables-as-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]iconv-lite[\\/]encodings[\\/]tables[\\/][^\\/]+\.json$/ }, (args) => ({
      contents: readFileSync(args.path),
      loader: 'copy',
    }));
  },
};

/**
 * The bundle is ASCII only: V8 holds a script with any other character as two bytes a character, twice the memory
 * to read, hash and keep at every start. esbuild escapes such characters in strings but leaves them in regular
 * expressions; there (and anywhere else in code) a \uXXXX escape means the same character.
 */
function asciiOnly(code) {
  return code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Make the build in `dist`/`record.dir` the current one (`current.json`, renamed into place: a start reads the old
 * or the new one, never half of one), then remove builds older than KEEP_OLD_MS (a running process may still load
 * a file of a recent one).
 */
export function publishBuild(dist, record) {
  const current = path.join(dist, 'current.json');
  const tmp = `${current}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(record));
  renameSync(tmp, current);
  for (const name of readdirSync(dist)) {
    if (!name.startsWith('b-') || name === record.dir) continue;
    const p = path.join(dist, name);
    if (Date.now() - statSync(p).mtimeMs > KEEP_OLD_MS) rmSync(p, { recursive: true, force: true });
  }
}

export async function buildCli() {
  const { build } = await import('esbuild');
  const started = Date.now();
  const dir = `b-${started}-${process.pid}`;
  const outdir = path.join(DIST, dir);
  mkdirSync(outdir, { recursive: true });
  await build({
    // heap-growth.cjs: the V8 flag the bin sets before it compiles the bundle (see core/cli/heap-growth.ts).
    entryPoints: {
      cli: path.join(ROOT, 'core/cli/main.ts'),
      'heap-growth': path.join(ROOT, 'core/cli/heap-growth.ts'),
      ...Object.fromEntries(Object.entries(VENDOR_CHUNKS).map(([pkg, name]) => [name, pkg])),
    },
    absWorkingDir: ROOT,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    // One CommonJS script, so that the bin can compile it with V8's code cache (scripts/load-cli.cjs; Node 20 has
    // none for ES modules). Each command is still loaded only when it runs: esbuild turns the commands' dynamic
    // import() into lazily run module bodies, so `--version` evaluates a few kB of it.
    format: 'cjs',
    target: 'node20',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
    legalComments: 'none',
    // Less to read and compile at every start; names are kept (error classes are told apart by name).
    minifyWhitespace: true,
    minifySyntax: true,
    // import.meta.url (the keychain's createRequire) as the bundle's own URL.
    define: { 'import.meta.url': '__slImportMetaUrl' },
    plugins: [withoutHttp2Client, vendorChunks, lazyParts, withoutZodLocales, iconvTablesAsFiles],
    banner: { js: "var __slImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  const esbuilt = path.join(outdir, 'cli.cjs');
  writeFileSync(
    path.join(outdir, BUNDLE_FILE),
    `${WRAPPER[0]}${asciiOnly(readFileSync(esbuilt, 'utf8'))}${WRAPPER[1]}`,
  );
  rmSync(esbuilt);
  publishBuild(DIST, { dir, entry: `${dir}/${BUNDLE_FILE}`, started_ms: started });
  return path.join(outdir, BUNDLE_FILE);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = performance.now();
  try {
    const entry = await buildCli();
    process.stdout.write(
      `supply-loader: CLI bundle ${path.relative(ROOT, entry)} built in ${Math.round(performance.now() - t0)} ms\n`,
    );
  } catch (e) {
    // An install must not fail for it: the bin then runs the sources through tsx and says so.
    process.stderr.write(
      `supply-loader: warning: the CLI bundle could not be built (${e instanceof Error ? e.message.split('\n')[0] : e}); supply-loader will run the TypeScript sources through tsx (slower start)\n`,
    );
  }
}
