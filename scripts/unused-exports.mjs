// Exported symbols in core/, electron/ and renderer/ that no other file imports (tests, bench, scripts and the sandbox
// count as users). `npm run check:exports` (= `node scripts/unused-exports.mjs`) lists the dead ones — exported,
// imported nowhere, not even used in their own file — and exits 1 if there are any. `… local` lists exports used
// only in their own file, `… barrel` re-exports nobody imports through the barrel, `… all` the three.
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';
const root = process.cwd();
const cfg = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
);
const files = cfg.fileNames.map((f) => path.resolve(f));
const host = ts.createCompilerHost(cfg.options);
const resolve = (spec, from) => {
  const r = ts.resolveModuleName(spec, from, cfg.options, host).resolvedModule;
  return r && !r.isExternalLibraryImport ? path.resolve(r.resolvedFileName) : null;
};
const exportsOf = new Map(); // file -> Set(name)
const uses = new Set(); // `${file}#${name}` or `${file}#*`
const aliases = []; // [fromFile, name, toFile, toName] : re-export
const hasExport = (n) =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (n) => (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
for (const f of files) {
  const src = ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const ex = new Set();
  exportsOf.set(f, ex);
  const visit = (n) => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    ) {
      const to = resolve(n.moduleSpecifier.text, f);
      if (to) {
        if (ts.isImportDeclaration(n)) {
          const c = n.importClause;
          if (!c) uses.add(`${to}#*side`);
          else {
            if (c.name) uses.add(`${to}#default`);
            const b = c.namedBindings;
            if (b && ts.isNamespaceImport(b)) uses.add(`${to}#*`);
            if (b && ts.isNamedImports(b))
              for (const e of b.elements) uses.add(`${to}#${(e.propertyName ?? e.name).text}`);
          }
        } else {
          const c = n.exportClause;
          if (!c) aliases.push([f, '*', to, '*']);
          else if (ts.isNamespaceExport(c)) {
            ex.add(c.name.text);
            aliases.push([f, c.name.text, to, '*']);
          } else
            for (const e of c.elements) {
              ex.add(e.name.text);
              aliases.push([f, e.name.text, to, (e.propertyName ?? e.name).text]);
            }
        }
      }
    } else if (ts.isExportDeclaration(n) && !n.moduleSpecifier && n.exportClause && ts.isNamedExports(n.exportClause)) {
      for (const e of n.exportClause.elements) ex.add(e.name.text);
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      const to = resolve(n.arguments[0].text, f);
      if (to) uses.add(`${to}#*`);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      const to = resolve(n.argument.literal.text, f);
      if (to)
        uses.add(
          `${to}#${n.qualifier ? (ts.isIdentifier(n.qualifier) ? n.qualifier.text : n.qualifier.left.getText()) : '*'}`,
        );
    }
    if (n.parent === src && hasExport(n) && !isDefault(n)) {
      if (ts.isVariableStatement(n))
        for (const d of n.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) ex.add(d.name.text);
        }
      else if (n.name && ts.isIdentifier(n.name)) ex.add(n.name.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
// propagate uses through re-exports until stable
let changed = true;
while (changed) {
  changed = false;
  for (const [from, name, to, toName] of aliases) {
    const used =
      name === '*'
        ? [...uses].some((u) => u.startsWith(`${from}#`) && u !== `${from}#*side`)
        : uses.has(`${from}#${name}`) || uses.has(`${from}#*`);
    if (!used) continue;
    if (name === '*') {
      for (const u of [...uses])
        if (u.startsWith(`${from}#`)) {
          const k = `${to}#${u.slice(from.length + 1)}`;
          if (!uses.has(k)) {
            uses.add(k);
            changed = true;
          }
        }
    } else {
      const k = `${to}#${toName}`;
      if (!uses.has(k)) {
        uses.add(k);
        changed = true;
      }
    }
  }
}
// Classify: "dead" (not even used in its own file: remove it), "local" (used only in its own file: the export
// could go), "barrel" (a re-export nobody imports through the barrel).
const reexported = new Set(aliases.map(([from, name]) => `${from}#${name}`));
const out = { dead: [], local: [], barrel: [] };
for (const [f, ex] of exportsOf) {
  const rel = path.relative(root, f);
  if (!/^(core|electron|renderer)\//.test(rel)) continue;
  if (uses.has(`${f}#*`)) continue;
  const text = fs.readFileSync(f, 'utf8');
  for (const name of ex) {
    if (uses.has(`${f}#${name}`)) continue;
    if (reexported.has(`${f}#${name}`)) out.barrel.push(`${rel}\t${name}`);
    else {
      const n = text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
      (n > 1 ? out.local : out.dead).push(`${rel}\t${name}`);
    }
  }
}
const only = process.argv[2] ?? 'dead';
for (const [kind, list] of Object.entries(out)) {
  if (only !== 'all' && kind !== only) continue;
  console.log(`# ${kind} (${list.length})`);
  if (list.length) console.log(list.sort().join('\n'));
}
if (only === 'dead' && out.dead.length > 0) {
  console.error('Exports nothing uses: remove them (or use them).');
  process.exitCode = 1;
}
