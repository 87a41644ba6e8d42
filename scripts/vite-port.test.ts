import { afterEach, describe, expect, it, vi } from 'vitest';
import { labPort } from '../vite.config';

describe('LAB_PORT', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads an integer port, falls back when unset, refuses anything else naming the variable', () => {
    expect(labPort({ LAB_PORT: '4408' }, 5173)).toBe(4408);
    expect(labPort({}, 5173)).toBe(5173);
    expect(labPort({ LAB_PORT: '' }, 5173)).toBe(5173);
    expect(() => labPort({ LAB_PORT: 'abc' }, 5173)).toThrow(/^LAB_PORT: must be an integer from 1 to 65535, got "abc" — /);
    expect(() => labPort({ LAB_PORT: '70000' }, 5173)).toThrow(/^LAB_PORT: /);
  });

  it('npm start / dev / preview (vite.config.ts) serve on LAB_PORT, strictly', async () => {
    vi.stubEnv('LAB_PORT', '4999');
    vi.resetModules();
    const config = (await import('../vite.config')).default as { server?: { port?: number; strictPort?: boolean }; preview?: { port?: number; strictPort?: boolean } };
    expect(config.server?.port).toBe(4999);
    expect(config.server?.strictPort).toBe(true);
    expect(config.preview?.port).toBe(4999);
    expect(config.preview?.strictPort).toBe(true);
  });

  it('without LAB_PORT the dev server keeps the README default, 5173', async () => {
    vi.stubEnv('LAB_PORT', '');
    vi.resetModules();
    const config = (await import('../vite.config')).default as { server?: { port?: number; strictPort?: boolean } };
    expect(config.server?.port).toBe(5173);
    expect(config.server?.strictPort).toBe(false);
  });
});

describe('a taken LAB_PORT gives one clear line, not Vite\'s raw error', () => {
  it('portTakenLine names the port and suggests the next one with the same command', async () => {
    const { portTakenLine } = await import('../vite.config');
    expect(portTakenLine(4417, 'npm start')).toBe('LAB_PORT 4417 is in use — pick another, e.g. LAB_PORT=4418 npm start');
    expect(portTakenLine(65535, 'npm run preview')).toBe('LAB_PORT 65535 is in use — pick another, e.g. LAB_PORT=65534 npm run preview');
  });

  // The real servers: `vite` (npm start / npm run dev) and `vite preview` started on a port this test holds.
  const cases: [string, string[], string, string][] = [
    ['npm start', [], 'start', 'npm start'],
    ['npm run dev', [], 'dev', 'npm run dev'],
    ['npm run preview', ['preview', '--outDir', 'PREVIEW_DIR'], 'preview', 'npm run preview'],
  ];
  for (const [name, args, script, command] of cases) {
    it(`${name}: exits 1 with "LAB_PORT <port> is in use — pick another, e.g. LAB_PORT=<port+1> ${command}"`, { timeout: 120_000 }, async () => {
      const { createServer } = await import('node:net');
      const { spawn } = await import('node:child_process');
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, 'localhost', resolve));
      const port = (holder.address() as { port: number }).port;
      const dir = mkdtempSync(path.join(tmpdir(), 'lab-preview-'));
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
      try {
        const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', ...args.map((a) => (a === 'PREVIEW_DIR' ? dir : a))], {
          env: { ...process.env, LAB_PORT: String(port), npm_lifecycle_event: script, FORCE_COLOR: '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const code = await new Promise<number | null>((resolve) => {
          const timer = setTimeout(() => child.kill(), 100_000);
          child.on('exit', (c) => {
            clearTimeout(timer);
            resolve(c);
          });
        });
        expect(out).toContain(`LAB_PORT ${port} is in use — pick another, e.g. LAB_PORT=${port + 1} ${command}`);
        expect(out).not.toContain('already in use');
        expect(out).not.toContain('error when starting');
        expect(code).toBe(1);
      } finally {
        holder.close();
      }
    });
  }
});
