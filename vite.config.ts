import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API port in development; `npm run dev` starts the API there and Vite in front of it.
const apiPort = Number(process.env.DEV_API_PORT ?? 3001);

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  // @contracts/* and @content/*, as web/tsconfig.json names them.
  resolve: { tsconfigPaths: true },
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: true },
  server: {
    port: Number(process.env.PORT ?? 3000),
    // '/api/', not '/api': the prefix '/api' would also send the /api-docs page to the API.
    proxy: { '/api/': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
