/**
 * Electron transport of the contract: one ipcMain.handle per procedure (never a generic channel), the sender
 * frame checked against the app's own page, then the shared dispatch (input and output validated by zod).
 * Events go to every window on their own channel.
 */
import type { RpcResult } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { HandlerTable } from '../../core/ipc/contract.js';
import { EVENT_NAMES, eventChannel, PROCEDURE_NAMES, procedureChannel } from '../../core/contract/names.js';
import type { AppServices } from '../../core/app/services.js';
import type { EventHub } from '../../core/ipc/services.js';
import type { BrowserWindowCtor, IpcMainInvokeEventLike, IpcMainLike } from './electron-api.js';
import type { RendererLocation } from './security.js';
import { isTrustedSenderUrl } from './security.js';

export const FORBIDDEN_SENDER: RpcResult = {
  ok: false,
  error: { code: 'forbidden', message: 'This request did not come from the Supply Loader window.' },
};

export function isTrustedSender(event: IpcMainInvokeEventLike, loc: RendererLocation): boolean {
  const frame = event.senderFrame;
  if (!frame) return false; // the frame navigated away or was destroyed
  if (frame.parent !== null) return false; // only the top frame, never an embedded one
  return isTrustedSenderUrl(frame.url, loc);
}

export function registerIpc(
  ipcMain: IpcMainLike,
  app: AppServices,
  loc: RendererLocation,
  handlers?: HandlerTable<AppServices>,
): () => void {
  for (const name of PROCEDURE_NAMES) {
    ipcMain.handle(procedureChannel(name), async (event, input) => {
      if (!isTrustedSender(event, loc)) {
        app.log.warn(
          { procedure: name, sender: event.senderFrame?.url ?? null },
          'IPC from an untrusted frame refused',
        );
        return FORBIDDEN_SENDER;
      }
      return dispatch(name, input, app, handlers);
    });
  }
  return () => {
    for (const name of PROCEDURE_NAMES) ipcMain.removeHandler(procedureChannel(name));
  };
}

/** Forward hub events to all open windows. */
export function forwardEvents(hub: EventHub, BrowserWindow: Pick<BrowserWindowCtor, 'getAllWindows'>): () => void {
  const known = new Set<string>(EVENT_NAMES);
  return hub.listen((name, payload) => {
    if (!known.has(name)) return;
    for (const w of BrowserWindow.getAllWindows()) {
      if (!w.isDestroyed() && !w.webContents.isDestroyed()) w.webContents.send(eventChannel(name), payload);
    }
  });
}
