import { APP_NAME_MAX_LENGTH } from '@portal/contracts';

/**
 * §5 blocks input beyond the maximum rather than reporting it: whatever reaches the field is
 * cut to 64 characters. Array.from counts code points, so an emoji is never split in half.
 */
export function clampAppName(value: string): string {
  const chars = Array.from(value);
  return chars.length > APP_NAME_MAX_LENGTH ? chars.slice(0, APP_NAME_MAX_LENGTH).join('') : value;
}

/** Length as the counter shows it, in the same units clampAppName cuts by. */
export function appNameLength(value: string): number {
  return Array.from(value).length;
}

/**
 * The field's value after pasting `pasted` over the selection [start, end): the paste keeps only
 * as much as still fits, so the text after the cursor is never pushed out.
 */
export function pasteIntoAppName(current: string, start: number, end: number, pasted: string): string {
  const before = current.slice(0, start);
  const after = current.slice(end);
  const room = Math.max(0, APP_NAME_MAX_LENGTH - appNameLength(before) - appNameLength(after));
  return clampAppName(before + Array.from(pasted).slice(0, room).join('') + after);
}
