import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w web` serves the app with hot reload and forwards the API, the login flow and
// the contract to a running `hub serve` (HUB_URL, default http://127.0.0.1:8080), so the session
// cookie stays same-origin.
const target = process.env.HUB_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target, changeOrigin: false },
      '/auth': { target, changeOrigin: false },
      '/openapi.yaml': { target },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
