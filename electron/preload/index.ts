/**
 * Preload (sandboxed; bundled to dist-electron/preload/index.cjs). Exposes window.supplyLoader and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('supplyLoader', createBridge(ipcRenderer));
