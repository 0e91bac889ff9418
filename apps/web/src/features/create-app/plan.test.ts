import { describe, expect, it } from 'vitest';
import { planForModules, toggleModule } from './plan';

describe('planForModules', () => {
  it('clears the plan when no module is chosen', () => {
    expect(planForModules([])).toBeNull();
  });

  it('picks the advance plan for one module or more', () => {
    expect(planForModules(['chat'])).toBe('advance');
    expect(planForModules(['video'])).toBe('advance');
    expect(planForModules(['product', 'chat', 'video'])).toBe('advance');
  });
});

describe('toggleModule', () => {
  it('adds and removes a module, keeping the card order', () => {
    expect(toggleModule([], 'video')).toEqual(['video']);
    expect(toggleModule(['video'], 'product')).toEqual(['product', 'video']);
    expect(toggleModule(['product', 'video'], 'product')).toEqual(['video']);
  });
});
