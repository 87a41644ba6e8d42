/**
 * `proxy --check`: the findings of `mcp-lab check` (the same `checkTranscript` over the same
 * capture envelope, `src/wire/transcript`), printed as they happen. The frames so far are kept as
 * capture lines; at most every `intervalMs` the checker runs over all of them and the findings not
 * printed before go out, one line each. The rules are never written twice: this only re-runs `check`.
 */
import { checkTranscript, importTranscript, type Finding } from '../../wire/transcript';
import { captureLine, type CaptureFrame } from '../../wire/transcript/capture';
import type { Recorder } from '../recorder';

/** A live checker. */
export interface LiveCheck {
  /** Takes one frame (as the recorder does). */
  frame(frame: Omit<CaptureFrame, 'ts'> & { ts?: string }): void;
  /** Runs the checker now over every frame so far and prints what is new. */
  flush(): void;
  /** Every finding printed so far. */
  readonly printed: Finding[];
  stop(): void;
}

/** One finding as a stderr line: `mcp-lab proxy: [severity] check (rule): message → scenario`. */
export function findingLine(f: Finding): string {
  return `mcp-lab proxy: [${f.severity}] ${f.check} (${f.rule}): ${f.message} → ${f.teaches.lab} ${f.teaches.scenario} (${f.teaches.href})\n`;
}

/**
 * Starts a live checker that writes each new finding with `write` (default: stderr).
 * `intervalMs`: the longest a finding waits before it is printed (ms).
 */
export function startLiveCheck(write: (line: string) => void = (l) => process.stderr.write(l), intervalMs = 250): LiveCheck {
  const lines: string[] = [];
  const seen = new Set<string>();
  const printed: Finding[] = [];
  let dirty = false;
  let checkedLines = 0;
  const run = () => {
    if (!dirty || lines.length === 0) return;
    dirty = false;
    checkedLines = lines.length;
    const imported = importTranscript(lines.join(''), { format: 'capture-jsonl' });
    if (!imported.ok) return;
    const report = checkTranscript(imported.transcript);
    for (const f of report.findings) {
      if (f.severity === 'info') continue;
      const key = `${f.check}|${JSON.stringify(f.requestIds)}|${f.entries[0] ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      printed.push(f);
      write(findingLine(f));
    }
  };
  // A long session re-checks less often: the checker is linear in the frames so far.
  let ticks = 0;
  const timer = setInterval(() => {
    ticks++;
    if (lines.length > checkedLines && (lines.length < 50_000 || ticks % 8 === 0)) run();
  }, intervalMs);
  timer.unref();
  return {
    frame(frame) {
      lines.push(captureLine({ ...frame, ts: frame.ts ?? new Date().toISOString() }));
      dirty = true;
    },
    flush: () => {
      dirty = true;
      run();
    },
    printed,
    stop: () => clearInterval(timer),
  };
}

/** A recorder that writes to `recorder` and feeds `check` (either may be absent). The timestamp is taken once, so both see the same line. */
export function teeRecorder(recorder: Recorder, check: LiveCheck | null): Recorder {
  if (!check) return recorder;
  return {
    path: recorder.path,
    frame(frame) {
      const withTs = { ...frame, ts: frame.ts ?? new Date().toISOString() };
      recorder.frame(withTs);
      check.frame(withTs);
    },
    close: () => recorder.close(),
  };
}
