/** The application menu: standard roles (so copy/paste and zoom work everywhere) plus About. */
import type { MenuItemOptionsLike } from './electron-api.js';

export interface MenuActions {
  about(): void;
  isDev: boolean;
  isMac: boolean;
}

export function menuTemplate(actions: MenuActions): MenuItemOptionsLike[] {
  const view: MenuItemOptionsLike[] = [
    { role: 'reload' },
    ...(actions.isDev ? [{ role: 'toggleDevTools' } as const] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(actions.isMac ? [{ role: 'appMenu' } as const] : []),
    { label: 'File', submenu: [{ role: actions.isMac ? 'close' : 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
    { label: 'Help', submenu: [{ label: 'About Supply Loader', click: actions.about }] },
  ];
}
