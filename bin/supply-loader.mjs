#!/usr/bin/env node
// The same CLI as bin/supply-loader.cjs (the package's bin), for scripts that run this path: it starts Node's ES
// module loader first, so its every start is ~30 ms slower than the .cjs bin's.
import './supply-loader.cjs';
