import { describe, expect, it } from 'vitest';
import { CREATE_APP_STEPS, PROGRESS_STEPS, firstStepPath, resolveStep } from './steps';

describe('resolveStep', () => {
  it('accepts every step of the wizard', () => {
    for (const step of CREATE_APP_STEPS) expect(resolveStep(step)).toBe(step);
  });

  it('rejects a missing or unknown step', () => {
    expect(resolveStep(undefined)).toBeNull();
    expect(resolveStep('')).toBeNull();
    expect(resolveStep('payment')).toBeNull();
    expect(resolveStep('Select-Implementation')).toBeNull();
  });
});

describe('firstStepPath', () => {
  it('keeps the query string', () => {
    expect(firstStepPath('asc', '?applicationId=a1')).toBe('/create-app/asc/select-implementation?applicationId=a1');
    expect(firstStepPath('asc', '')).toBe('/create-app/asc/select-implementation');
  });
});

it('shows progress over the first three steps only', () => {
  expect(PROGRESS_STEPS).toEqual(['select-implementation', 'setup-application', 'finish-setup']);
});
