import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

// The renderer: built to dist-renderer/ with relative asset paths, so the same build loads from file:// in
// Electron and from the loopback origin in browser mode.
export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist-renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome130',
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
});
