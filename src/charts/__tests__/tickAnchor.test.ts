import { describe, expect, it } from 'vitest';
import { tickAnchor } from '../hooks';

describe('axis tick labels stay inside the plot', () => {
  it('the last tick at the right edge ends at its tick instead of being cut; others stay centred', () => {
    expect(tickAnchor(874, 875)).toBe('end');
    expect(tickAnchor(860, 875)).toBe('end');
    expect(tickAnchor(800, 875)).toBe('middle');
    expect(tickAnchor(0, 875)).toBe('middle');
  });
});
