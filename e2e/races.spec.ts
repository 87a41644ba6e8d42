import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { RacesPage } from './pages/races';
import type { Page } from '@playwright/test';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new RacesPage(page);

test.describe('Races lab: the lesson\'s four orders', () => {
  test('A: cancel, then complete → cancelled, no final response, notifications/cancelled on stdio', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    await expect(kit(lab).outcomeState).toHaveText('cancelled');
    await expect(kit(lab).finalResponse).toHaveText('no');
    await expect(kit(lab).cancelSignal).toHaveText('notifications/cancelled');
  });

  test('B: complete, then the cancel arrives → the final response exists', async ({ lab }) => {
    await kit(lab).openOn('B-complete-then-cancel');
    await expect(kit(lab).outcomeState).toHaveText('cancelled');
    await expect(kit(lab).finalResponse).toHaveText('yes');
  });

  test('C: the maximum wins at 2000 ms, and the call is still pending at 1500 ms', async ({ lab }) => {
    await kit(lab).openOn('C-progress-idle-maximum');
    await expect(kit(lab).outcomeState).toHaveText('timeout-max');
    await expect(kit(lab).invariant('maximum-enforced')).toHaveAttribute('data-status', 'holds');
    // Turn on the bug: progress also resets the maximum → the invariants panel shows the violation.
    await kit(lab).policy('progressResetsMaximum').check();
    await expect(kit(lab).outcomeState).toHaveText('timeout-idle');
    await expect(kit(lab).invariant('maximum-deadline-fixed')).toHaveAttribute('data-status', 'violated');
  });

  test('D: Streamable HTTP closes the stream; on stdio the same operation sends notifications/cancelled', async ({ lab }) => {
    await kit(lab).openOn('D-http-stream-close');
    await expect(kit(lab).cancelSignal).toHaveText('stream-close');
    await kit(lab).transport.selectOption('stdio');
    await expect(kit(lab).cancelSignal).toHaveText('notifications/cancelled');
    await kit(lab).transport.selectOption('streamable-http');
    await kit(lab).revision.selectOption('2025-11-25');
    await expect(kit(lab).cancelSignal).toHaveText('notifications/cancelled');
  });
});

test.describe('Races lab: issue 23 (the wire panel and the listen stream)', () => {
  test('M1 over 2026-07-28 HTTP: each POST\'s HTTP line names exactly the headers its Headers row lists', async ({ lab }) => {
    await kit(lab).openOn('M1-mrtr-confirm-transfer');
    await lab.keyboard.press('End');
    const headers = await kit(lab).wireHeaders.allTextContents();
    expect(headers.length).toBeGreaterThanOrEqual(3);
    const lines = await kit(lab).wireHttpLines.allTextContents();
    for (const h of headers) expect(lines.some((l) => l.includes(`POST /mcp (${h})`)), h).toBe(true);
    expect(headers).toContain('MCP-Protocol-Version: 2026-07-28; Mcp-Method: tools/call; Mcp-Name: transfer_funds');
  });

  test('L over Streamable HTTP: the server\'s teardown ends the listen stream (it stayed pending before)', async ({ lab }) => {
    await kit(lab).openOn('L-listen-teardown');
    await kit(lab).transport.selectOption('streamable-http');
    await lab.keyboard.press('End');
    await expect(kit(lab).outcomeState).toHaveText('ended-by-server');
  });
});

test.describe('Races lab: interaction', () => {
  test('dragging A\'s cancel after the completion ends the call completed', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const handle = kit(lab).event('cancel');
    await expect(handle).toHaveAttribute('aria-label', /cancel at 300 ms/);
    const box = await handle.boundingBox();
    const complete = await kit(lab).event('complete').boundingBox();
    expect(box && complete).toBeTruthy();
    // Drag with the pointer well past the completion handle (500 ms): the response then lands first.
    const targetX = complete!.x + complete!.width / 2 + (complete!.x - box!.x) * 0.6;
    await kit(lab).dragEvent('cancel', targetX, 12);
    const label = await handle.getAttribute('aria-label');
    const at = Number(/at (\d+) ms/.exec(label ?? '')?.[1]);
    expect(at).toBeGreaterThan(520);
    expect(at % 10).toBe(0); // snapped to 10 ms
    await expect(kit(lab).outcomeState).toHaveText('completed');
    await expect(kit(lab).finalResponse).toHaveText('yes');
    // Undo brings the lesson's order back.
    await kit(lab).undoButton.click();
    await expect(kit(lab).outcomeState).toHaveText('cancelled');
  });

  test('dragging far past the right edge takes an event at most to twice the shown range, and it stays put', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const grab = await kit(lab).grabEvent('cancel');
    const { box, y } = grab;
    await grab.moveTo(box.x + 3000, y, 40);
    const atOf = () => kit(lab).eventAt('cancel');
    const far = await atOf();
    // Lesson A shows 0–530 ms: the drag may widen the view up to twice that, never minutes away.
    expect(far).toBeGreaterThan(600);
    expect(far).toBeLessThanOrEqual(1060);
    // Resting beyond the edge, or moving vertically, no longer changes the time.
    await grab.moveTo(box.x + 3000, y + 40, 10);
    expect(await atOf()).toBe(far);
    await grab.release();
  });

  test('the keyboard moves an event by 10 ms per arrow press', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const handle = kit(lab).event('cancel');
    await kit(lab).nudgeEvent('cancel', 'ArrowRight', 25);
    await expect(handle).toHaveAttribute('aria-label', /cancel at 550 ms/);
    await expect(kit(lab).outcomeState).toHaveText('completed');
  });

  test('stepping with the keyboard moves the virtual clock through the trace', async ({ lab }) => {
    await kit(lab).openOn('C-progress-idle-maximum');
    await kit(lab).clickPageCorner();
    await lab.keyboard.press('Home');
    const clock = kit(lab).clock;
    const t0 = await clock.textContent();
    await lab.keyboard.press('ArrowRight');
    await expect(clock).not.toHaveText(t0 ?? '');
    await lab.keyboard.press('End');
    await expect(clock).toContainText(/3[\s,.]?000/);
    await lab.keyboard.press('ArrowLeft');
    await expect(clock).not.toContainText(/3[\s,.]?000/);
  });

  test('a shared link reproduces an edited scenario exactly, and Reset restores the lesson', async ({ lab, browser }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const handle = kit(lab).event('cancel');
    await kit(lab).nudgeEvent('cancel', 'ArrowRight', 3);
    await kit(lab).policy('respondAfterCancel').check();
    await expect(handle).toHaveAttribute('aria-label', /cancel at 330 ms/);
    // The address is written on a throttle (≤ 300 ms): wait until it stops changing before sharing it.
    let url = '';
    await expect
      .poll(() => {
        const seen = lab.url();
        const settled = seen === url;
        url = seen;
        return settled;
      }, { intervals: [400] })
      .toBe(true);
    const other = await browser.newPage();
    await other.goto(url);
    await expect(kit(other).event('cancel')).toHaveAttribute('aria-label', /cancel at 330 ms/);
    await expect(kit(other).policy('respondAfterCancel')).toBeChecked();
    await expect(kit(other).invariant('no-response-after-cancel')).toHaveAttribute('data-status', 'violated');
    await other.close();
    await kit(lab).resetButton.click();
    await expect(handle).toHaveAttribute('aria-label', /cancel at 300 ms/);
    await expect(kit(lab).policy('respondAfterCancel')).not.toBeChecked();
  });

  test('the field case with 50 calls shows 50 timeouts', async ({ lab }) => {
    await kit(lab).openOn('F5-fifty-timeouts');
    await expect(kit(lab).outcomeState).toHaveText('timeout-max');
    await expect(kit(lab).outcomeStateOf(50)).toHaveText('timeout-max');
  });
});

test.describe('Races lab: incidents (issue 24 item 4)', () => {
  test('K1 (qwen-code#11272): the cancel is a notification and call 2 is answered at 3 201 ms; with the bug the cancel ends the stdio server and call 2 fails at once at 3 000 ms', async ({ lab }) => {
    const races = await kit(lab).openOn('K1-cancel-kills-stdio-server');
    await lab.keyboard.press('End');
    await expect(races.outcomeState).toHaveText('cancelled');
    await expect(races.cancelSignal).toHaveText('notifications/cancelled');
    await expect(races.finalTerminalOf(1)).toHaveText('cancelled at 2 000 ms');
    await expect(races.finalTerminalOf(2)).toHaveText('completed at 3 201 ms');
    for (const name of ['server-outlives-cancel', 'later-call-answered']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'holds');

    await races.policy('cancelKillsServerProcess').check();
    await expect(races.cancelSignal).toHaveText('process-kill');
    await expect(races.finalTerminalOf(1)).toHaveText('cancelled at 2 000 ms');
    await expect(races.finalTerminalOf(2)).toHaveText('connection-closed at 3 000 ms');
    await expect(races.finalWhyOf(2)).toContainText('the client ended the server process at 2000 ms and the transport is closed: error -32000 (connection closed)');
    for (const name of ['server-outlives-cancel', 'later-call-answered']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'violated');

    // Over Streamable HTTP the client owns no process: the switch changes nothing, call 2 is answered.
    await races.setTransport('streamable-http');
    await expect(races.finalTerminalOf(2)).toHaveText('completed at 3 201 ms');
    await expect(races.invariant('server-outlives-cancel')).toHaveAttribute('data-status', 'holds');
  });

  test('K2 (XcodeMCPKit#204): a 5 MiB line over a 4 MiB limit fails its own call alone; with the bug the limit judged on a 64 KiB-read prefix stops the server and every call fails', async ({ lab }) => {
    const races = await kit(lab).openOn('K2-size-limit-on-prefix');
    await lab.keyboard.press('End');
    // Three calls: the outcome panel is a table, one row per call ("call 1", its final state and time).
    const finalOf = (n: number) => races.tableFinalOf(n);
    const firstWhy = races.tableFirstWhy;
    await expect(races.outcomeStateOf(1)).toHaveText('failed');
    await expect(finalOf(1)).toHaveText('failed 1 001 ms');
    await expect(firstWhy).toContainText("over the reader's maxMessageBytes 4194304: rejected alone");
    await expect(finalOf(2)).toHaveText('completed 1 501 ms');
    await expect(finalOf(3)).toHaveText('completed 2 201 ms');
    for (const name of ['message-limit-on-complete-line', 'oversize-rejected-alone']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'holds');

    await races.policy('limitCheckedOnPrefix').check();
    await expect(finalOf(1)).toHaveText('connection-closed 1 001 ms');
    await expect(finalOf(2)).toHaveText('connection-closed 1 001 ms');
    await expect(finalOf(3)).toHaveText('connection-closed 2 000 ms');
    await expect(firstWhy).toContainText('the incomplete 4259840-byte prefix');
    for (const name of ['message-limit-on-complete-line', 'oversize-rejected-alone']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'violated');
  });

  test('K3 (agent-os#894): matched by id each call gets its own result; read in order, the progress is an empty success and every later call takes the previous one\'s result; framed with Content-Length, nothing is received', async ({ lab }) => {
    const races = await kit(lab).openOn('K3-first-message-read');
    await lab.keyboard.press('End');
    const finalOf = (n: number) => races.tableFinalOf(n);
    await expect(finalOf(1)).toHaveText('completed 801 ms');
    await expect(finalOf(2)).toHaveText('completed 1 401 ms');
    await expect(finalOf(3)).toHaveText('completed 2 301 ms');
    for (const name of ['reply-matched-by-id', 'notification-is-not-a-result', 'newline-delimited-framing']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'holds');

    await races.policy('replyIsFirstMessageRead').check();
    await expect(finalOf(1)).toHaveText('completed 301 ms');
    await expect(finalOf(2)).toHaveText('completed 1 000 ms');
    await expect(finalOf(3)).toHaveText('completed 2 000 ms');
    await expect(races.tableFirstWhy).toContainText('notifications/progress 1 for 1, taken as the reply: an empty success');
    for (const name of ['reply-matched-by-id', 'notification-is-not-a-result']) await expect(races.invariant(name)).toHaveAttribute('data-status', 'violated');

    await races.policy('replyIsFirstMessageRead').uncheck();
    await races.policy('contentLengthFraming').check();
    await expect(finalOf(1)).toHaveText('timeout-idle 10 000 ms');
    await expect(finalOf(3)).toHaveText('timeout-idle 12 000 ms');
    await expect(races.invariant('newline-delimited-framing')).toHaveAttribute('data-status', 'violated');
  });

  test('K4 (claude-code#65413): a 15 400-byte result line read in 4 KiB reads completes call 1 at 91 ms; parsed read by read it is never processed, call 1 hangs until the Esc at 180 000 ms', async ({ lab }) => {
    const races = await kit(lab).openOn('K4-large-line-never-read');
    await lab.keyboard.press('End');
    await expect(races.finalTerminalOf(1)).toHaveText('completed at 91 ms');
    await expect(races.finalTerminalOf(2)).toHaveText('completed at 1 051 ms');
    await expect(races.invariant('response-line-reassembled')).toHaveAttribute('data-status', 'holds');

    await races.policy('incompleteTailDropped').check();
    await expect(races.finalTerminalOf(1)).toHaveText('cancelled at 180 000 ms');
    await expect(races.finalTerminalOf(2)).toHaveText('completed at 1 051 ms');
    await expect(races.invariant('response-line-reassembled')).toHaveAttribute('data-status', 'violated');
  });

  test('V1 (2026-07-28 basic/versioning): -32022 for DRAFT-2027-v1 at 2 ms, the call retried as 2 declaring 2026-07-28; with the bug every call fails', async ({ lab }) => {
    const races = await kit(lab).openOn('V1-unsupported-protocol-version');
    await lab.keyboard.press('End');
    await expect(races.tableFinalOf(1)).toHaveText('failed 2 ms');
    await expect(races.tableFinalOf(2)).toHaveText('completed 501 ms');
    await expect(races.tableFinalOf(3)).toHaveText('completed 1 401 ms');
    await expect(races.tableFirstWhy).toContainText('the client retries the call with 2026-07-28');
    await expect(races.invariant('version-mismatch-retried')).toHaveAttribute('data-status', 'holds');

    await races.policy('unsupportedVersionNotRetried').check();
    await expect(races.finalTerminalOf(1)).toHaveText('failed at 2 ms');
    await expect(races.finalTerminalOf(3)).toHaveText('failed at 1 002 ms');
    await expect(races.invariant('version-mismatch-retried')).toHaveAttribute('data-status', 'violated');
  });
});

test.describe('Races lab: bad input', () => {
  test('a malformed scenario import names the field and keeps the previous scenario', async ({ lab }) => {
    await kit(lab).openOn('B-complete-then-cancel');
    await kit(lab).importText.fill(JSON.stringify({ format: 1, lab: 'races', id: 'x', title: 'x', config: {}, events: [{ id: 'a', at: 'soon', actor: 'client', kind: 'start', requestId: 1 }] }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('events[0].at');
    await expect(kit(lab).picker).toHaveValue('B-complete-then-cancel');
    await expect(kit(lab).finalResponse).toHaveText('yes');
    await kit(lab).importText.fill('{ not json');
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('not valid JSON');
  });

  test('a malformed URL shows the problem and still shows a working lab', async ({ lab }) => {
    await lab.goto('./#/races?scenario=not-base64-json!!');
    await expect(kit(lab).banner).toBeVisible();
    await expect(kit(lab).outcomeState).toHaveText(/\w+/);
  });

  test('a bad link opened over an edited scenario keeps the edit, in the page and in the address', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const handle = kit(lab).event('cancel');
    await handle.focus();
    await lab.keyboard.press('ArrowRight');
    await expect(handle).toHaveAttribute('aria-label', /cancel at 310 ms/);
    await lab.evaluate(() => {
      window.location.hash = '#/races/no-such-lesson';
    });
    await expect(kit(lab).banner).toContainText('no built-in scenario is called "no-such-lesson"');
    await expect(lab).not.toHaveURL(/no-such-lesson/);
    await lab.reload();
    await expect(kit(lab).event('cancel')).toHaveAttribute('aria-label', /cancel at 310 ms/);
  });

  test('another lab\'s scenario is named in one line; a bad playhead in a link is ignored, the scenario kept', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    await kit(lab).importText.fill(JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', config: {}, events: [] }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('lab: this is a "ledger" scenario; open it in the Ledger lab (#/ledger)');
    await lab.goto('./#/races/B-complete-then-cancel?transport=streamable-http&t=later');
    await expect(kit(lab).banner).toContainText('t (playhead in the link)');
    await expect(kit(lab).picker).toHaveValue('B-complete-then-cancel');
    await expect(kit(lab).transport).toHaveValue('streamable-http');
  });

  test('labels and notes render as text, never as HTML', async ({ lab }) => {
    await kit(lab).openOn('A-cancel-then-complete');
    const evil = '<img src=x onerror="window.__pwned=1">';
    const scenario = {
      format: 1, lab: 'races', id: 'xss', title: `Title ${evil}`, summary: `Summary ${evil}`, config: {},
      events: [{ id: 'start', at: 0, actor: 'client', kind: 'start', requestId: evil, label: evil, maxTimeoutMs: 100 }],
    };
    await kit(lab).importText.fill(JSON.stringify(scenario));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).summaryText(`Summary ${evil}`)).toBeVisible();
    expect(await kit(lab).injectedImages.count()).toBe(0);
    expect(await lab.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

test.describe('Races lab: the client profile', () => {
  test('S1: pick "lab policy (spec)" and the cancel leaves at the maximum; the SDK v1 behaviour is named under the SDK; undo restores it; the link keeps it', async ({ lab }) => {
    const races = await kit(lab).openOn('S1-sdk-v1-maximum-late');
    const picker = races.clientProfile;
    const why = races.outcomeWhy;
    const server = races.workStopped;
    await expect(picker).toHaveValue('typescript-sdk-v1');
    await expect(races.clientProfileOptions).toHaveText(['lab policy (spec)', 'TypeScript SDK v1', 'TypeScript SDK v2']);
    await expect(races.clientProfileByLabel, 'the select is labelled "Client"').toHaveValue('typescript-sdk-v1');
    const named = races.sdkBehaviour;
    await expect(named).toHaveCount(1);
    await expect(named).toHaveAttribute('data-rule', 'sdk.no-cancel-at-maximum');
    await expect(named).toContainText('SDK v1: no cancel when the maximum trips; it waits for the old idle timer');
    await expect(named).toContainText('at 180 000, 220 000 ms');
    await expect(why).toContainText('sdk.no-cancel-at-maximum');
    await expect(server).toContainText('work stopped at 220 000 ms');

    await picker.selectOption('lab');
    await expect(races.sdkBehaviours).toHaveCount(0);
    await expect(why).toContainText('timeout.max');
    await expect(why).not.toContainText('sdk.');
    await expect(server).toContainText('work stopped at 180 000 ms');
    await expect(lab).toHaveURL(/client\.profile=lab/);

    await races.undoButton.click();
    await expect(picker).toHaveValue('typescript-sdk-v1');
    await expect(named).toHaveAttribute('data-rule', 'sdk.no-cancel-at-maximum');
    await expect(server).toContainText('work stopped at 220 000 ms');
    await expect(lab).not.toHaveURL(/client\.profile/);
  });

  test('S1 from a link with client.profile=sdk-v2: the TypeScript SDK v2 is picked and names its own behaviour (no cancel ever after the maximum); v1 names the late cancel; the link writes the full name', async ({ lab }) => {
    const races = await kit(lab).openLink('#/races/S1-sdk-v1-maximum-late?revision=2026-07-28&client.profile=sdk-v2');
    const named = races.sdkBehaviour;
    await expect(races.clientProfile).toHaveValue('typescript-sdk-v2');
    await expect(named).toHaveCount(1);
    await expect(named).toHaveAttribute('data-rule', 'sdk.v2-no-cancel-after-maximum');
    await expect(named).toContainText('SDK v2: when the maximum trips, no cancel is ever sent');
    await expect(named).toContainText('at 180 000 ms');
    await expect(races.outcomeWhy).toContainText('sdk.v2-no-cancel-after-maximum');

    await races.clientProfile.selectOption('typescript-sdk-v1');
    await expect(named).toHaveAttribute('data-rule', 'sdk.no-cancel-at-maximum');
    await expect(races.workStopped).toContainText('work stopped at 220 000 ms');
    await expect(lab).not.toHaveURL(/client\.profile/); // the built-in's own profile

    await races.clientProfile.selectOption('typescript-sdk-v2');
    await expect(named).toHaveAttribute('data-rule', 'sdk.v2-no-cancel-after-maximum');
    await expect(lab).toHaveURL(/client\.profile=typescript-sdk-v2/);
  });
});

test('no serious accessibility violations (axe)', async ({ lab }) => {
  await kit(lab).openOn('C-progress-idle-maximum');
  const results = await new AxeBuilder({ page: lab }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
});
