// The import graph of our own modules (core and sandbox by default) and its cycles. Every edge counts:
// `import`, `import type`, `export … from`, `export type … from` and `import('…')`, resolved with tsconfig's
// options (so `./x.js` is `./x.ts`); packages and node: modules are left out. `npm run check:cycles` prints
// each cycle found and exits 1 if there is one; test/unit/import-cycles.test.ts asserts there is none.
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_FOLDERS = ['core', 'sandbox'];

const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The module specifiers a file names: static imports and re-exports (type-only included) and `import()`. */
export function specifiersOf(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** file (relative to the root, with `/`) → the files of ours it imports, within the folders walked. */
export function importGraph(folders: string[] = DEFAULT_FOLDERS, root = ROOT): Map<string, string[]> {
  const host = ts.createCompilerHost(compilerOptions);
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const files = folders.flatMap((d) => sourceFiles(path.join(root, d)));
  const known = new Set(files.map(rel));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiersOf(file)) {
      if (!spec.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(spec, file, compilerOptions, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = rel(path.resolve(resolved.resolvedFileName));
      if (known.has(to)) targets.add(to);
    }
    graph.set(rel(file), [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): each is a cycle. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strong(v);
  return out;
}

/** One closed path through a component, to show how the cycle goes (a → b → … → a). */
export function pathThrough(graph: Map<string, string[]>, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const back = [v];
        while (back[0] !== start) back.unshift(previous.get(back[0])!);
        return [...back, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  const graph = importGraph(folders.length > 0 ? folders : DEFAULT_FOLDERS);
  const cycles = cyclesOf(graph);
  for (const component of cycles) {
    console.log(`cycle of ${component.length} files: ${pathThrough(graph, component).join(' → ')}`);
    if (component.length > 2) console.log(`  all of: ${component.join(', ')}`);
  }
  console.log(`${graph.size} files, ${cycles.length} cycle(s)`);
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
