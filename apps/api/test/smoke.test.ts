import { describe, expect, it } from 'vitest';
import { jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

const testApp = useTestApp();

describe('account after sign-up, verification and setup', () => {
  it('answers the filled account with the super-admin role and a 15-day trial', async () => {
    const { app } = testApp;
    const cookie = await setUpOrganization(app, 'ann@acme.io');
    const me = await app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    expect(me.statusCode).toBe(200);
    const account = me.json();
    expect(account.isAccountFilled).toBe(true);
    expect(account.roles).toEqual([{ id: 'portal.super-admin' }]);
    const trialDays = (Date.parse(account.trialEndAt) - Date.now()) / 86_400_000;
    expect(trialDays).toBeGreaterThan(14.9);
    expect(trialDays).toBeLessThanOrEqual(15);
  });
});
