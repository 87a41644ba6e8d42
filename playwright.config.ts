import { defineConfig } from '@playwright/test';

const port = Number(process.env.LAB_PORT ?? 4321);

/** Chromium from Debian (`/usr/bin/chromium`); Playwright cannot download browsers here. */
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

export default defineConfig({
  testDir: 'e2e',
  // Generous: tests assert outcomes, never speed (a loaded 2-core CI box must not fail them).
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/mcp-lab/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: chromiumLaunch,
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `node e2e/serve.mjs ${port} /mcp-lab/`,
    url: `http://127.0.0.1:${port}/mcp-lab/`,
    // Never test someone else's server: a busy port fails loudly (set LAB_PORT to use another one).
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
