/** vitest global setup: build the CLI bundle (dist-cli/) when it is missing or older than its sources. */
// @ts-expect-error -- a plain ES module script without types
import { buildCli } from '../scripts/build-cli.mjs';
// @ts-expect-error -- a plain CommonJS script without types
import { currentBundle } from '../scripts/cli-bundle.cjs';

export default async function setup(): Promise<void> {
  if (!(currentBundle() as { entry?: string }).entry) await buildCli();
}
