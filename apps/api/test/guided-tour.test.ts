import { AccountSchema, messages } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_SETUP,
  accountOf,
  expectApiError,
  joinByInvitation,
  jsonRequest,
  setUpOrganization,
  signIn,
  signUpVerifiedUser,
  useTestApp,
} from './helper.ts';

/*
 * The guided tour's offer (decision 039): the organisation's creator is offered it once setup is
 * done, until they finish or skip it; the answer is kept per member, so a new session (another
 * device) is not offered it again, and nobody else's offer changes.
 */
const t = useTestApp();

const putTour = (body: unknown, cookie?: string) =>
  t.app.inject(jsonRequest('PUT', '/api/v1/accounts/me/tour', body, cookie));

let badInputs = 0;

describe('the guided tour offer', () => {
  it('is offered to the creator after setup, not before, and not to an invited member', async () => {
    const cookie = await signUpVerifiedUser(t.app, 'tour-creator@acme.io');
    expect((await accountOf(t.app, cookie)).offerTour).toBe(false);

    const setup = await t.app.inject(jsonRequest('PUT', '/api/v1/accounts', INITIAL_SETUP, cookie));
    expect(setup.statusCode, setup.body).toBe(200);
    expect(AccountSchema.parse(setup.json()).offerTour).toBe(true);
    expect((await accountOf(t.app, cookie)).offerTour).toBe(true);

    const invited = await joinByInvitation(t.app, cookie, 'tour-developer@acme.io', 'portal.developer');
    expect((await accountOf(t.app, invited.cookie)).offerTour).toBe(false);
  });

  it.each(['finished', 'skipped'] as const)(
    'once %s, is not offered again, in this session or a new one',
    async (outcome) => {
      const email = `tour-${outcome}@acme.io`;
      const cookie = await setUpOrganization(t.app, email);
      const other = await setUpOrganization(t.app, `tour-${outcome}-other@acme.io`);

      const answer = await putTour({ outcome }, cookie);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(AccountSchema.parse(answer.json()).offerTour).toBe(false);
      expect((await accountOf(t.app, cookie)).offerTour).toBe(false);

      // Another device: a session of its own reads the same account.
      const anotherDevice = await signIn(t.app, email);
      expect(anotherDevice).not.toBe(cookie);
      expect((await accountOf(t.app, anotherDevice)).offerTour).toBe(false);

      // Another organisation's creator is still offered theirs.
      expect((await accountOf(t.app, other)).offerTour).toBe(true);
    },
  );

  it('takes a tour started from the Help menu by a member never offered one', async () => {
    const owner = await setUpOrganization(t.app, 'tour-owner-of-admin@acme.io');
    const admin = await joinByInvitation(t.app, owner, 'tour-admin@acme.io', 'portal.admin');
    const answer = await putTour({ outcome: 'finished' }, admin.cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(AccountSchema.parse(answer.json()).offerTour).toBe(false);
    // The owner's own offer is theirs.
    expect((await accountOf(t.app, owner)).offerTour).toBe(true);
  });

  it('refuses a caller without a session', async () => {
    expectApiError(await putTour({ outcome: 'finished' }), 401, 'UNAUTHORIZED');
  });

  it.each([
    ['no outcome', {}],
    ['an unknown outcome', { outcome: 'abandoned' }],
    ['an outcome that is not text', { outcome: 1 }],
    ['a body that is not an object', ['finished']],
  ])('answers 400 naming the outcome for %s', async (_case, body) => {
    const cookie = await setUpOrganization(t.app, `tour-bad-${(badInputs += 1)}@acme.io`);
    const error = expectApiError(await putTour(body, cookie), 400, 'VALIDATION_ERROR');
    expect(error.message).toMatch(/outcome|object/i);
    if (!Array.isArray(body)) {
      expect(error.fields).toContainEqual({ field: 'outcome', message: messages['validation.tourOutcome'] });
    }
    expect((await accountOf(t.app, cookie)).offerTour).toBe(true);
  });
});
