#!/usr/bin/env node
// supply-loader: the Supply Loader command line. Registers tsx (TypeScript sources run as they are) and starts
// electron/core/cli/main.ts. Works from any directory: paths are resolved from this file, not the cwd.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
register({ tsconfig: path.join(root, 'tsconfig.json') });
const { main } = await import(pathToFileURL(path.join(root, 'electron/core/cli/main.ts')).href);
await main(process.argv.slice(2));
