import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localeParts } from './vite-locale-parts.ts';

/** pdfjs-dist's folder, wherever npm put it: the PDF viewer bundles its CMaps and standard fonts from there. */
const pdfjsDist = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export default defineConfig({
  plugins: [react(), localeParts()],
  resolve: { alias: { '@pdfjs-dist-data': pdfjsDist } },
  server: { port: 5173, proxy: { '/api': 'http://localhost:4545' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 900 },
});
