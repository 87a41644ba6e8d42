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
