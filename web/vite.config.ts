import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The build lands in the Go package that embeds it. No source maps: the
// committed bundle stays small, and the sources are in this folder.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: '../server/dashboard/dist',
    emptyOutDir: true,
    sourcemap: false,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1000,
  },
  server: {
    proxy: {
      '/graphql': 'http://127.0.0.1:8080',
      '/api': 'http://127.0.0.1:8080',
      '/node-types.json': 'http://127.0.0.1:8080',
    },
  },
})
