import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addSelectedHint } from './addSelectedHint';

describe('All orders: the disabled "Add the selected event" says why', () => {
  it('names what is missing in each disabled case, nothing when it can add', () => {
    expect(addSelectedHint(null, [], 8)).toMatch(/Select an event on the timeline/);
    expect(addSelectedHint('cancel', ['cancel'], 8)).toBe('cancel is already ticked.');
    expect(addSelectedHint('x', ['a', 'b'], 2)).toMatch(/2 events are ticked/);
    expect(addSelectedHint('cancel', [], 8)).toBeNull();
  });
  it('the table\'s first column fits its header "orders" (it ran into "outcome" at 5ch)', () => {
    const css = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'common.css'), 'utf8');
    const width = /\.all-orders-table th:first-child, \.all-orders-table td:first-child \{ width: (\d+)ch/.exec(css);
    expect(width).not.toBeNull();
    // "orders" (6 characters) plus 2 × 6 px of padding (about 1 ch each) and a border.
    expect(Number(width![1])).toBeGreaterThanOrEqual('orders'.length + 2);
  });
});
