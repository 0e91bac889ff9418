import { APP_NAME_MAX_LENGTH } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { appNameLength, clampAppName, pasteIntoAppName } from './app-name';

describe('clampAppName', () => {
  it('keeps names up to the maximum as they are', () => {
    expect(clampAppName('My app')).toBe('My app');
    const longest = 'a'.repeat(APP_NAME_MAX_LENGTH);
    expect(clampAppName(longest)).toBe(longest);
  });

  it('cuts anything beyond 64 characters', () => {
    expect(clampAppName('b'.repeat(70))).toBe('b'.repeat(64));
  });

  it('never splits a character made of two code units', () => {
    const name = '😀'.repeat(65);
    expect(appNameLength(clampAppName(name))).toBe(64);
    expect(clampAppName(name)).toBe('😀'.repeat(64));
  });
});

describe('pasteIntoAppName', () => {
  it('inserts the pasted text at the cursor when it fits', () => {
    expect(pasteIntoAppName('Hello world', 5, 5, ' big')).toBe('Hello big world');
  });

  it('replaces the selection', () => {
    expect(pasteIntoAppName('Hello world', 6, 11, 'there')).toBe('Hello there');
  });

  it('keeps only as much of the paste as fits, and the text after the cursor', () => {
    const current = 'x'.repeat(60);
    const result = pasteIntoAppName(current, 30, 30, 'abcdefgh');
    expect(result).toHaveLength(64);
    expect(result).toBe('x'.repeat(30) + 'abcd' + 'x'.repeat(30));
  });

  it('adds nothing to a full name', () => {
    const full = 'y'.repeat(64);
    expect(pasteIntoAppName(full, 64, 64, 'more')).toBe(full);
  });
});
