import type { Application } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { provisioningRefetchInterval } from './list-applications';

const app = (state: Application['state']) => ({ state }) as Application;

describe('provisioningRefetchInterval', () => {
  it('polls every 2 s while an app is initializing and stops after', () => {
    expect(provisioningRefetchInterval([app('active'), app('initializing')])).toBe(2000);
    expect(provisioningRefetchInterval([app('active')])).toBe(false);
    expect(provisioningRefetchInterval(undefined)).toBe(false);
  });
});
