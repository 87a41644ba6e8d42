import { vi } from 'vitest';

/**
 * Runs a CLI command in-process and returns its exit code with everything it wrote to
 * `process.stdout` and `process.stderr` (captured, not printed); the writes are restored after,
 * also when the command throws.
 */
export async function captureStdio(command: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    const code = await command();
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
