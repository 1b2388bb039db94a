import type { SupplyLoaderBridge } from '../../electron/preload/bridge.js';

declare global {
  interface Window {
    /** Present only in the desktop app (preload); browser mode talks HTTP to its own origin. */
    supplyLoader?: SupplyLoaderBridge;
  }
}
export {};
