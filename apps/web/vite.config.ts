import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Relative asset URLs: index.html carries a <base> the API fills in with URL_BASE when it serves the
// page, so one build works at / and behind any proxy prefix.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, target: 'es2022' },
  server: { proxy: { '/api': process.env.MO_API ?? 'http://127.0.0.1:8080' } },
});
