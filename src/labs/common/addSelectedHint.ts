/**
 * Why "Add the selected event" (All orders) cannot add now, in words shown beside the disabled
 * button (issue 27, item 5: it was disabled with no hint), or null when it can.
 */
export function addSelectedHint(selected: string | null, picked: readonly string[], max: number): string | null {
  if (selected === null) return 'Select an event on the timeline first (click its handle, or focus it with Tab).';
  if (picked.includes(selected)) return `${selected} is already ticked.`;
  if (picked.length >= max) return `${max} events are ticked, the most All orders takes: untick one first.`;
  return null;
}
