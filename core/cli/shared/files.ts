/** Input and output paths of commands: checked up front, so a typo fails before anything is sent. */
import fs from 'node:fs';
import path from 'node:path';
import { CliUsageError } from './errors.js';

/** An existing, readable file. */
export function checkInputFile(file: string, cwd: string, command: string): string {
  const p = path.resolve(cwd, file);
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    throw new CliUsageError(`there is no file ${p}`, command);
  }
  if (!st.isFile()) throw new CliUsageError(`${p} is not a file`, command);
  return p;
}

/** A file we may write: its directory exists, it is not a directory, it ends in .xlsx. */
export function checkOutputPath(file: string, cwd: string, command: string, what = 'output'): string {
  const p = path.resolve(cwd, file);
  if (!/\.xlsx$/i.test(p)) throw new CliUsageError(`the ${what} file must end in .xlsx (got ${file})`, command);
  const dir = path.dirname(p);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new CliUsageError(`the folder ${dir} does not exist`, command);
  if (fs.existsSync(p) && fs.statSync(p).isDirectory()) throw new CliUsageError(`${p} is a folder`, command);
  return p;
}

/** Refuse to overwrite the input with an output. */
export function checkDistinct(input: string, output: string, command: string, flag: string): void {
  if (path.resolve(input) === path.resolve(output)) {
    throw new CliUsageError(`${flag} must not be the input workbook (the input is never changed)`, command);
  }
}

/** SOURCE... of validate / plan / import: at least one, each an existing file (.xlsx and .csv may be mixed). */
export function checkSourceFiles(positionals: string[], cwd: string, command: string): string[] {
  if (positionals.length === 0) throw new CliUsageError('missing SOURCE (a workbook .xlsx or .csv files)', command);
  const out = positionals.map((f) => checkInputFile(f, cwd, command));
  const dup = out.find((p, i) => out.indexOf(p) !== i);
  if (dup) throw new CliUsageError(`${dup} is given twice`, command);
  return out;
}
