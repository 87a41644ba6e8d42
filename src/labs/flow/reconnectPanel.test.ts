import { describe, expect, it } from 'vitest';
import { EVENT_STORE_MAX, eventStoreProblem } from './ReconnectPanel';

describe('the reconnect plan\'s event-store box', () => {
  it('takes a whole number of events from 1 to the maximum', () => {
    expect(eventStoreProblem('1')).toBeNull();
    expect(eventStoreProblem('1024')).toBeNull();
    expect(eventStoreProblem(String(EVENT_STORE_MAX))).toBeNull();
  });
  it('refuses each bad value with the field, the problem and what to do', () => {
    const what = 'enter a whole number of events from 1 to 1,000,000';
    expect(eventStoreProblem('0')).toBe(`plan.eventStoreEvents: 0 is below 1 — ${what}`);
    expect(eventStoreProblem('-1')).toBe(`plan.eventStoreEvents: -1 is below 1 — ${what}`);
    expect(eventStoreProblem('')).toBe(`plan.eventStoreEvents: is empty — ${what}`);
    expect(eventStoreProblem('1.5')).toBe(`plan.eventStoreEvents: 1.5 is not a whole number — ${what}`);
    expect(eventStoreProblem('abc')).toBe(`plan.eventStoreEvents: "abc" is not a number — ${what}`);
    expect(eventStoreProblem('1e20')).toBe(`plan.eventStoreEvents: 100,000,000,000,000,000,000 is above the maximum (1,000,000) — ${what}`);
  });
});
