import { describe, expect, it } from 'vitest';
import { failAlert, readAuthNavigationState } from './navigation-state';

describe('readAuthNavigationState', () => {
  it('reads the address and the alert', () => {
    expect(
      readAuthNavigationState({ email: 'ann@acme.io', alert: failAlert('auth.error.codeExpired') }),
    ).toEqual({
      email: 'ann@acme.io',
      alert: { kind: 'fail', message: 'auth.error.codeExpired' },
    });
  });

  it('ignores what does not have the expected shape', () => {
    expect(readAuthNavigationState(null)).toEqual({});
    expect(readAuthNavigationState('x')).toEqual({});
    expect(readAuthNavigationState({ email: 42, alert: { kind: 'warning', message: 'x' } })).toEqual({});
    expect(readAuthNavigationState({ alert: { kind: 'success' } })).toEqual({});
  });
});
