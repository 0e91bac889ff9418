import { describe, expect, it } from 'vitest';
import { planForModules, planPrice, toggleModule } from './plan';

describe('planForModules', () => {
  it('clears the plan when no module is chosen', () => {
    expect(planForModules([])).toBeNull();
  });

  it('picks the advance plan for one module or more', () => {
    expect(planForModules(['chat'])).toBe('advance');
    expect(planForModules(['video'])).toBe('advance');
    expect(planForModules(['product', 'chat', 'video'])).toBe('advance');
  });

  it('keeps a plan picked from the catalogue while a module is chosen, and clears it without one', () => {
    expect(planForModules(['chat'], 'basic')).toBe('basic');
    expect(planForModules(['video'], 'max')).toBe('max');
    expect(planForModules([], 'max')).toBeNull();
  });
});

describe('planPrice', () => {
  it('shows the price in dollars without the unit (§3)', () => {
    expect(planPrice('basic')).toBe('$0.06');
    expect(planPrice('advance')).toBe('$0.09');
    expect(planPrice('max')).toBe('$0.14');
  });
});

describe('toggleModule', () => {
  it('adds and removes a module, keeping the card order', () => {
    expect(toggleModule([], 'video')).toEqual(['video']);
    expect(toggleModule(['video'], 'product')).toEqual(['product', 'video']);
    expect(toggleModule(['product', 'video'], 'product')).toEqual(['video']);
  });
});
