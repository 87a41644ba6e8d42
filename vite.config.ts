import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Relative base: the built site works from any sub-path of any static host, with no server code.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
