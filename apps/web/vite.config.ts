import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `vite` serves the app on :5173 and proxies the API to PODIUM_API (default the `npm run up` port).
const api = process.env['PODIUM_API'] ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: __dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: { host: '127.0.0.1', proxy: { '/graphql': api, '/api': api } },
});
