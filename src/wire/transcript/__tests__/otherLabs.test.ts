import { beforeAll, describe, expect, it } from 'vitest';
import { replayLedger, type OpenDatabase } from '../../../sim/ledger';
import { opener, scenario } from '../../../sim/ledger/__tests__/helpers';
import { exportTranscript, wireEffectRecords } from '../export';
import { importTranscript } from '../parse';
import { checkTranscript } from '../checks';
import { TRANSCRIPT_FORMATS } from '../types';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

const duplicates = (id: string) =>
  TRANSCRIPT_FORMATS.map((format) => {
    const r = importTranscript(exportTranscript(wireEffectRecords(replayLedger(scenario(id), open).effects), format));
    if (!r.ok) throw new Error(r.reason);
    return checkTranscript(r.transcript, { schema: false }).findings.filter((f) => f.check === 'duplicate-call').map((f) => [f.severity, f.requestIds]);
  });

describe('any lab run exports as a transcript: the ledger lab', () => {
  it('F (the client gives up at 1000 ms and retries while the first charge still runs, one key) is a keyed duplicate in every format', () => {
    for (const found of duplicates('F-lost-response')) expect(found).toEqual([['info', [1, 2, 3]]]);
  });

  it('C (each retry after the previous answer) is no overlap: the first call can no longer be running', () => {
    for (const found of duplicates('C-no-key-retries')) expect(found).toEqual([]);
  });
});
