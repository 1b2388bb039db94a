/**
 * Where Supply Loader keeps its per-user files outside Electron (browser mode, CLI). Electron's main process
 * uses app.getPath('userData') instead. SUPPLY_LOADER_CONFIG_DIR overrides the location (tests, portable use).
 */
import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'supply-loader';

export function userConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const override = env.SUPPLY_LOADER_CONFIG_DIR;
  if (override && override.trim() !== '') return path.resolve(override);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), APP_DIR_NAME);
}
