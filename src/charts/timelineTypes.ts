/**
 * Data model of the generic timeline chart (`Timeline.tsx`): horizontal lanes split into rows,
 * and small marks placed on them by time. Labs map their traces onto these; the chart knows
 * nothing about any lab. All labels are plain text (rendered as SVG text, never as HTML).
 */

/** Colour roles; the stylesheet maps each to a theme colour. Never the only signal: marks also carry text. */
export type Tone = 'neutral' | 'client' | 'server' | 'wire' | 'worker' | 'ok' | 'bad' | 'warn' | 'info' | 'muted';

export interface TimelineRow {
  id: string;
  /** Height in px. Rows under 14 px draw no label. */
  height: number;
  label?: string;
}

export interface TimelineLane {
  id: string;
  label: string;
  rows: TimelineRow[];
  /** Rows whose marks' labels are laid out greedily (arrow labels are drawn in this lane's rows). */
  labelLane?: boolean;
}

/** A place on the chart: lane id, row id, time (ms). */
export interface TimelinePos {
  lane: string;
  row: string;
  at: number;
}

interface MarkBase {
  id: string;
  tone: Tone;
  /** Tooltip text (SVG <title>). */
  title?: string;
  /** Not reached by the playhead yet: drawn faint. */
  future?: boolean;
}

/** A scripted event the user can drag and move with the keyboard. */
export interface HandleMark extends MarkBase, TimelinePos {
  kind: 'handle';
  shape: 'diamond' | 'circle' | 'square' | 'triangle';
  label?: string;
  /** Short name shared by similar handles; a cluster of them is labelled "<group> ×n". */
  group?: string;
  ariaLabel: string;
  testId?: string;
  /** The event had no effect (drawn hollow and struck through). */
  ignored?: boolean;
  /** 1-based order among same-ms events when that order matters; shown as a small number. */
  tieOrder?: number;
}

/** Something that happened (a timer, an arrival): a small glyph. */
export interface PointMark extends MarkBase, TimelinePos {
  kind: 'point';
  shape: 'dot' | 'x' | 'tick';
  hollow?: boolean;
  struck?: boolean;
}

/** A bar from `at` to `to`; `open` draws it open-ended with a fading arrow (outcome not known yet). */
export interface SpanMark extends MarkBase, TimelinePos {
  kind: 'span';
  to: number;
  open?: boolean;
  thickness?: number;
  endCap?: 'none' | 'x' | 'dot' | 'bar';
  /** Text after the bar's end (at the bottom of the row). */
  endLabel?: string;
}

/** A message from one place to another; `to: null` means it never arrives (drawn ending in a cross). */
export interface ArrowMark extends MarkBase {
  kind: 'arrow';
  from: TimelinePos;
  to: TimelinePos | null;
  dashed?: boolean;
  label?: string;
  /** Lane whose rows hold this arrow's label (usually the wire lane). */
  labelLane?: string;
  /** Time at which to draw an in-flight dot on the arrow, or null. */
  dotAt?: number | null;
}

/** A vertical marker across one row (e.g. a deadline). Off-screen markers are drawn at the edge. */
export interface MarkerMark extends MarkBase, TimelinePos {
  kind: 'marker';
  dashed?: boolean;
  label?: string;
  /** Label to the right of the line (start) or to the left (end). */
  anchor?: 'start' | 'end';
  /** Label at the top or bottom of the row. */
  labelAt?: 'top' | 'bottom';
  /**
   * Time (ms) the label must end before, e.g. where the next segment of a state band starts: the
   * label is drawn to the right of the line only when it fits; else `shortLabel` when that fits;
   * else no label (put the name in `title`). Unset: the label is always drawn (the default).
   */
  labelUntil?: number;
  /** Abbreviation used when `label` does not fit before `labelUntil`. */
  shortLabel?: string;
}

/** A light background band over a time range of one row (e.g. an idle window). */
export interface BandMark extends MarkBase, TimelinePos {
  kind: 'band';
  to: number;
}

/** A step series (e.g. how many workers are busy), filled to the row's baseline. */
export interface StepsMark extends MarkBase {
  kind: 'steps';
  lane: string;
  row: string;
  /** [time, value] pairs, time ascending; the value holds until the next pair. */
  points: readonly (readonly [number, number])[];
  max: number;
  /** Drawn solid up to this time, faint after. */
  until: number;
  label?: string;
}

export type TimelineMark = HandleMark | PointMark | SpanMark | ArrowMark | MarkerMark | BandMark | StepsMark;

/**
 * Props of `<Timeline>`. Times are ms; callbacks receive the handle's mark id. Every label drawn
 * (lane, row and mark text, tooltips, accessible names) has its bidi controls removed (`neutraliseBidi`).
 */
export interface TimelineProps {
  lanes: readonly TimelineLane[];
  marks: readonly TimelineMark[];
  /** Time range shown when not zoomed, ms. */
  domain: readonly [number, number];
  cursorMs: number;
  /** Accessible name of the chart. */
  label: string;
  onSeek(ms: number): void;
  /** A handle is being dragged to `ms` (called on every pointer move; the first call starts the gesture). */
  onHandleMove?(id: string, ms: number): void;
  onHandleDragStart?(id: string): void;
  onHandleDragEnd?(id: string): void;
  /** Keyboard nudge by `deltaMs`. */
  onHandleNudge?(id: string, deltaMs: number): void;
  /** Keyboard reorder among same-time handles. */
  onHandleReorder?(id: string, direction: -1 | 1): void;
  onHandleSelect?(id: string): void;
  selectedId?: string | null;
  /** Pointer drags snap to this many ms (default 10); holding Shift or Alt snaps to `fineSnapMs` (default 1). */
  snapMs?: number;
  fineSnapMs?: number;
  /** Times the playhead sticks to when scrubbed near them (sorted). */
  snapTimes?: readonly number[];
  /** Changing this resets zoom (e.g. a different scenario). */
  resetKey?: string | number;
  /** Id of an element describing the keyboard controls of handles. */
  handleHelpId?: string;
}
