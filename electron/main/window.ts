/** The main window: secure preferences, guards, and the renderer loaded from the build (or the dev server). */
import type { BrowserWindowLike, BrowserWindowOptionsLike, MainElectron } from './electron-api.js';
import type { RendererLocation } from './security.js';
import { guardWebContents, secureWebPreferences } from './security.js';

export function mainWindowOptions(preload: string): BrowserWindowOptionsLike {
  return {
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 700,
    title: 'Supply Loader',
    show: false,
    backgroundColor: '#f6f7f9',
    webPreferences: secureWebPreferences(preload),
  };
}

export function createMainWindow(
  electron: Pick<MainElectron, 'BrowserWindow' | 'shell'>,
  opts: { preload: string; renderer: RendererLocation; log?: (msg: string, url: string) => void },
): BrowserWindowLike {
  const win = new electron.BrowserWindow(mainWindowOptions(opts.preload));
  guardWebContents(win.webContents, electron.shell, opts.log);
  win.once('ready-to-show', () => win.show());
  if (opts.renderer.devUrl) void win.loadURL(opts.renderer.devUrl);
  else void win.loadFile(opts.renderer.file);
  return win;
}
