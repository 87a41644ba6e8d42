/**
 * The live programs' recorder: appends capture-envelope lines (`src/wire/transcript/capture.ts`)
 * to a file as frames happen, so a recording is complete and valid JSONL up to the last frame
 * written even when the process is killed. Real time lives here (the live floor), never in src/sim.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { captureLine, type CaptureFrame } from '../wire/transcript/capture';

/** A recording in progress. `frame` takes everything but `ts`, which is the wall clock at the call. */
export interface Recorder {
  /** Appends one line (synchronously: a crash after the call cannot lose it). */
  frame(frame: Omit<CaptureFrame, 'ts'> & { ts?: string }): void;
  /** Closes the file; later frames are dropped. */
  close(): void;
  /** The file being written, or null for the no-op recorder. */
  readonly path: string | null;
}

/** A recorder that writes nothing (no `--record`). */
export const NO_RECORDER: Recorder = { frame() {}, close() {}, path: null };

/**
 * Opens `path` for writing (truncating it) and returns its recorder.
 * @throws Error naming the file when it cannot be opened.
 */
export function openRecorder(path: string): Recorder {
  let fd: number | null;
  try {
    fd = openSync(path, 'w');
  } catch (err) {
    throw new Error(`cannot write the recording to ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return {
    path,
    frame(frame) {
      if (fd === null) return;
      writeSync(fd, captureLine({ ...frame, ts: frame.ts ?? new Date().toISOString() }));
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
