import { describe, expect, it } from 'vitest';
import { pageItems } from './pagination';

describe('pageItems', () => {
  it('offers every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 2)).toEqual([1, 2, 3]);
  });

  it('keeps the first, the last and the current page with its neighbours, with gaps between', () => {
    expect(pageItems(10, 5)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageItems(10, 1)).toEqual([1, 2, 'gap', 10]);
    expect(pageItems(5, 1)).toEqual([1, 2, 'gap', 5]);
    expect(pageItems(10, 10)).toEqual([1, 'gap', 9, 10]);
  });

  it('shows a single missing page instead of a gap', () => {
    expect(pageItems(10, 4)).toEqual([1, 2, 3, 4, 5, 'gap', 10]);
    expect(pageItems(5, 3)).toEqual([1, 2, 3, 4, 5]);
  });
});
