/**
 * Minimal stand-ins for DOM elements and events (no jsdom in this project): enough for the
 * timeline behaviours' listeners — addEventListener/removeEventListener, contains, closest,
 * getAttribute and getBoundingClientRect — so their wiring is tested without a browser.
 */
export class FakeElement {
  readonly listeners = new Map<string, Set<(e: unknown) => void>>();
  readonly attrs: Record<string, string>;
  readonly classes: string[];
  parent: FakeElement | null = null;
  captured: number[] = [];
  constructor(opts: { attrs?: Record<string, string>; classes?: string[]; parent?: FakeElement; left?: number } = {}) {
    this.attrs = opts.attrs ?? {};
    this.classes = opts.classes ?? [];
    this.parent = opts.parent ?? null;
    this.left = opts.left ?? 0;
  }
  left: number;
  addEventListener(type: string, fn: (e: unknown) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }
  removeEventListener(type: string, fn: (e: unknown) => void) {
    this.listeners.get(type)?.delete(fn);
  }
  listenerCount(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }
  getAttribute(name: string): string | null {
    return this.attrs[name] ?? null;
  }
  getBoundingClientRect() {
    return { left: this.left, top: 0, width: 0, height: 0 };
  }
  setPointerCapture(id: number) {
    this.captured.push(id);
  }
  matches(selector: string): boolean {
    const attr = /^\[([\w-]+)\]$/.exec(selector);
    if (attr) return attr[1] in this.attrs;
    if (selector.startsWith('.')) return this.classes.includes(selector.slice(1));
    return false;
  }
  closest(selector: string): FakeElement | null {
    return this.matches(selector) ? this : (this.parent?.closest(selector) ?? null);
  }
  contains(other: FakeElement): boolean {
    return other === this || (other.parent !== null && this.contains(other.parent));
  }
  /** Runs this element's listeners for `type`, then its ancestors' (bubbling), unless stopped. */
  dispatch<E extends object>(type: string, event: E): E & FakeEventFlags {
    const e = Object.assign(event, { target: (event as { target?: unknown }).target ?? this, defaultPrevented: false, stopped: false }) as E & FakeEventFlags & { target: unknown };
    e.preventDefault = () => void (e.defaultPrevented = true);
    e.stopPropagation = () => void (e.stopped = true);
    this.bubble(type, e);
    return e;
  }
  private bubble(type: string, e: FakeEventFlags) {
    for (const fn of this.listeners.get(type) ?? []) fn(e);
    if (!e.stopped) this.parent?.bubble(type, e);
  }
}

export interface FakeEventFlags {
  defaultPrevented: boolean;
  stopped: boolean;
  preventDefault(): void;
  stopPropagation(): void;
}

/** Casts a fake to the DOM type a behaviour's `update` expects. */
export const asElement = (f: FakeElement) => f as unknown as Element;
