import type { Account, ResetTwoFactorResponse } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  accountOf,
  enrolAuthenticator,
  expectApiError,
  jsonRequest,
  joinByInvitation,
  sessionCookieOf,
  setUpOrganization,
  signInRequest,
  signUpVerifiedUser,
  untilMail,
  useTestApp,
} from './helper.ts';

/*
 * The operator's way back in for someone who has lost both the authenticator app and the backup
 * codes (POST /api/operator/v1/two-factor-resets): the second factor is removed and every session
 * ended, the password alone signs in again (through enrolment when the organisation requires a
 * second factor), and the person is mailed a notice.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-two-factor-reset-test';
const t = useTestApp({ OPERATOR_TOKEN });
const RESETS = '/api/operator/v1/two-factor-resets';

/** The reset as the CLI asks for it; `authorization: null` sends no credential. */
function reset(body: unknown, authorization: string | null = `Bearer ${OPERATOR_TOKEN}`) {
  const request = jsonRequest('POST', RESETS, body);
  return t.app.inject({
    ...request,
    headers: { ...request.headers, ...(authorization !== null && { authorization }) },
  } satisfies InjectOptions);
}

async function resetOf(email: string): Promise<ResetTwoFactorResponse> {
  const response = await reset({ email });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ResetTwoFactorResponse;
}

function account(cookie: string) {
  return t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
}

async function enrol(cookie: string): Promise<string> {
  return (await enrolAuthenticator(t.app, cookie)).cookie;
}

/** A password sign-in: the session cookie, or undefined when it stops at the second factor. */
async function passwordSignIn(email: string) {
  const response = await signInRequest(t.app, email);
  expect(response.statusCode, response.body).toBe(200);
  const cookie = sessionCookieOf(response.headers['set-cookie']);
  return { cookie, body: response.json() as { twoFactorRedirect?: boolean } };
}

async function userRow(email: string) {
  const [user] = await t.database.db.select().from(schema.user).where(eq(schema.user.email, email));
  return user!;
}

async function secondFactorRows(email: string) {
  const { id } = await userRow(email);
  return t.database.db.select().from(schema.twoFactor).where(eq(schema.twoFactor.userId, id));
}

describe('resetting a second factor', () => {
  it('lets a super-admin who lost the phone and the backup codes in with the password alone, ending the old sessions, and mails them', async () => {
    const email = 'lost-phone@two-factor-reset.io';
    const signedUp = await setUpOrganization(t.app, email);
    const { organizationId } = await accountOf(t.app, signedUp);
    const enrolled = await enrol(signedUp);
    expect((await accountOf(t.app, enrolled)).twoFactorEnabled).toBe(true);
    expect((await passwordSignIn(email)).body).toEqual({
      twoFactorRedirect: true,
      twoFactorMethods: ['totp'],
    });
    // Someone else's session is not touched.
    const other = await setUpOrganization(t.app, 'bystander@two-factor-reset.io');

    expect(await resetOf(email.toUpperCase())).toEqual({
      email,
      organizationId,
      hadSecondFactor: true,
      requireTwoFactor: false,
    });

    expectApiError(await account(enrolled), 401, 'UNAUTHORIZED');
    expect(await secondFactorRows(email)).toEqual([]);
    expect((await userRow(email)).twoFactorEnabled).toBe(false);
    const { cookie, body } = await passwordSignIn(email);
    expect(body.twoFactorRedirect).toBeUndefined();
    expect(await accountOf(t.app, cookie!)).toMatchObject({
      organizationId,
      roles: [{ id: 'portal.super-admin' }],
      twoFactorEnabled: false,
      twoFactorEnrolmentRequired: false,
    } satisfies Partial<Account>);
    expect((await account(other)).statusCode).toBe(200);

    const mails = await untilMail(t.app, email, 'Two-factor authentication was removed');
    const notice = mails.find((mail) => mail.subject.includes('Two-factor authentication was removed'))!;
    expect(notice.subject).toBe(
      'Two-factor authentication was removed from your Social Developer Portal account',
    );
    expect(notice.text).toContain(
      `The operator of the Social Developer Portal removed the two-factor authentication (authenticator app and backup codes) of your account ${email} and signed you out everywhere.`,
    );
    expect(notice.text).toContain('If you did not ask for this, reset your password now');
    expect(notice.text).toMatch(/Reset your password: http\S+\/password\/reset/);

    // Again: nothing left to remove, the new session ended, and a notice that says so.
    expect((await resetOf(email)).hadSecondFactor).toBe(false);
    expectApiError(await account(cookie!), 401, 'UNAUTHORIZED');
    await untilMail(t.app, email, 'signed out everywhere');
  });

  it('leads a member of an organisation that requires a second factor through enrolment again', async () => {
    const ownerEmail = 'owner@requires-two-factor.io';
    const owner = await enrol(await setUpOrganization(t.app, ownerEmail));
    const required = await t.app.inject(
      jsonRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: true }, owner),
    );
    expect(required.statusCode, required.body).toBe(200);
    const memberEmail = 'member@requires-two-factor.io';
    const joined = await joinByInvitation(t.app, owner, memberEmail, 'portal.admin');
    await enrol(joined.cookie);

    for (const email of [memberEmail, ownerEmail]) {
      expect(await resetOf(email)).toMatchObject({ hadSecondFactor: true, requireTwoFactor: true });
      const { cookie, body } = await passwordSignIn(email);
      expect(body.twoFactorRedirect).toBeUndefined();
      expect(await accountOf(t.app, cookie!)).toMatchObject({
        twoFactorEnabled: false,
        twoFactorEnrolmentRequired: true,
      });
      expectApiError(
        await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, cookie)),
        403,
        'TWO_FACTOR_ENROLMENT_REQUIRED',
      );
      const enrolledAgain = await enrol(cookie!);
      expect(
        (await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, enrolledAgain))).statusCode,
      ).toBe(200);
      const mails = await untilMail(t.app, email, 'Two-factor authentication was removed');
      const notice = mails.find((mail) => mail.subject.includes('Two-factor authentication was removed'));
      expect(notice?.text).toContain('your organisation requires two-factor authentication');
    }
  });

  it('answers a person without an organisation with organizationId null', async () => {
    const email = 'no-organisation@two-factor-reset.io';
    await signUpVerifiedUser(t.app, email);
    expect(await resetOf(email)).toEqual({
      email,
      organizationId: null,
      hadSecondFactor: false,
      requireTwoFactor: false,
    });
  });

  it('answers 404 naming an address nobody has, and 400 for what is not an address', async () => {
    const missing = expectApiError(await reset({ email: 'nobody@two-factor-reset.io' }), 404, 'NOT_FOUND');
    expect(missing.message).toBe('Nobody has the address nobody@two-factor-reset.io.');
    for (const body of [{}, { email: '' }, { email: 'not-an-address' }]) {
      expect(expectApiError(await reset(body), 400, 'VALIDATION_ERROR').field).toBe('email');
    }
  });

  it.each([
    ['no credential', null, 'untouched-1@two-factor-reset.io'],
    ['a wrong token', 'Bearer not-the-operator-token', 'untouched-2@two-factor-reset.io'],
  ])('refuses %s with 401, before reading the body', async (_label, authorization, email) => {
    const cookie = await enrol(await setUpOrganization(t.app, email));
    expectApiError(await reset({ email }, authorization), 401, 'UNAUTHORIZED');
    expectApiError(await reset({}, authorization), 401, 'UNAUTHORIZED');
    expect((await account(cookie)).statusCode).toBe(200);
    expect(await secondFactorRows(email)).toHaveLength(1);
  });

  it("refuses a member's session, the super-admin's too", async () => {
    const cookie = await setUpOrganization(t.app, 'session@two-factor-reset.io');
    const response = await t.app.inject(
      jsonRequest('POST', RESETS, { email: 'session@two-factor-reset.io' }, cookie),
    );
    expectApiError(response, 401, 'UNAUTHORIZED');
  });
});
