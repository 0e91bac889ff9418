import { tryGetCurrentAuthEndpointContext } from '@better-auth/core/context';
import type { DBAdapter, DBTransactionAdapter } from '@better-auth/core/db/adapter';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import type { Db, Tx } from '../db/client.ts';
import {
  awaitsSecondFactor,
  challengedUserId,
  firstFactorOfChallenge,
  hasConfirmedSecondFactor,
  SECOND_FACTOR_PATHS,
} from './two-factor.ts';

/** How a sign-in was made, as the audit log names it; `two_factor` finishes a password or Google sign-in. */
export type SignInMethod = 'password' | 'google' | 'sso' | 'two_factor';
export type FirstFactor = 'password' | 'google';
export type SignInFailure = 'wrong_password' | 'wrong_code';

/** Someone the identity service knows, by user id or by (lower-cased) address. */
export type UserKey = { userId: string } | { email: string };

/**
 * What the identity service tells the organisation's audit log (modules/identity writes the entries;
 * this folder may not import the modules). Each change is handed over with its own transaction, so
 * its entry commits with it; a failed sign-in changes nothing and is recorded in one of its own.
 */
export interface IdentityAudit {
  signedIn(tx: Tx, userId: string, method: SignInMethod, firstFactor: FirstFactor | undefined): Promise<void>;
  signedOut(tx: Tx, userId: string): Promise<void>;
  secondFactorTurned(tx: Tx, userId: string, on: boolean): Promise<void>;
  signInFailed(user: UserKey, method: SignInMethod, reason: SignInFailure): Promise<void>;
  /** A person joins an organisation by its identity provider (sso.ts). */
  joinedBySso(
    tx: Tx,
    member: { memberId: string; organizationId: string; email: string; roleId: string },
  ): Promise<void>;
}

type CreateQuery<T extends Record<string, unknown>> = Parameters<DBAdapter['create']>[0] & {
  data: Omit<T, 'id'>;
};
type UpdateQuery = Parameters<DBAdapter['update']>[0];

interface EndpointContext {
  path?: string;
  headers?: Headers;
}

function currentEndpoint(): EndpointContext | undefined {
  return tryGetCurrentAuthEndpointContext() as EndpointContext | undefined;
}

/** The endpoints whose new session is a sign-in, by the way it was made. */
const SIGN_IN_METHODS: Record<string, SignInMethod> = {
  '/sign-in/email': 'password',
  // Google is the portal's one OAuth provider (auth.ts): its callback is the only one served.
  '/callback/:id': 'google',
  '/sso/callback/:providerId': 'sso',
  '/sso/saml2/sp/acs/:providerId': 'sso',
  ...Object.fromEntries([...SECOND_FACTOR_PATHS].map((path) => [path, 'two_factor' as const])),
};

/**
 * Whether the session just made is a sign-in: not the first step of one that still needs the second
 * factor (deleted again at once), nor the session enrolment makes in place of the enrolling one.
 */
async function isSignIn(tx: Tx, userId: string, method: SignInMethod, path: string) {
  if (method === 'two_factor') return hasConfirmedSecondFactor(tx, userId);
  return !(await awaitsSecondFactor(tx, userId, path));
}

/**
 * better-auth's adapter with the audit entries of sign-ins, sign-outs and second factors turned on
 * or off written in the transaction of the row that is the change: the session made, the session
 * deleted, the user's `twoFactorEnabled`. Every session, whichever endpoint or plugin makes it, is
 * made here, so no sign-in is missed; `adapterIn` is the same adapter on a transaction.
 */
export function withIdentityAudit(
  adapter: DBAdapter,
  adapterIn: (tx: Tx) => DBAdapter,
  db: Db,
  audit: IdentityAudit,
): DBAdapter {
  return {
    ...withAuditedWrites(adapter, adapterIn, db, audit),
    // The SSO plugin makes its sessions inside better-auth's transactions (which the drizzle adapter
    // runs on the database as it is): their adapter records alike.
    transaction: (callback) =>
      adapter.transaction((transactionAdapter) =>
        callback(withAuditedWrites(transactionAdapter, adapterIn, db, audit)),
      ),
  };
}

function withAuditedWrites(
  adapter: DBTransactionAdapter,
  adapterIn: (tx: Tx) => DBAdapter,
  db: Db,
  audit: IdentityAudit,
): DBTransactionAdapter {
  const create = async <T extends Record<string, unknown>, R = T>(query: CreateQuery<T>): Promise<R> => {
    const endpoint = currentEndpoint();
    const path = endpoint?.path ?? '';
    const method = query.model === 'session' ? SIGN_IN_METHODS[path] : undefined;
    if (!method) return adapter.create<T, R>(query);
    return db.transaction(async (tx) => {
      const session = await adapterIn(tx).create<T, R & { userId: string }>(query);
      const { userId } = session;
      if (await isSignIn(tx, userId, method, path)) {
        const firstFactor =
          method === 'two_factor' ? firstFactorOfChallenge(endpoint?.headers?.get('cookie')) : undefined;
        await audit.signedIn(tx, userId, method, firstFactor);
      }
      return session;
    });
  };

  const deleteRow: DBAdapter['delete'] = async (query) => {
    if (query.model !== 'session' || currentEndpoint()?.path !== '/sign-out') return adapter.delete(query);
    await db.transaction(async (tx) => {
      const ended = await adapterIn(tx).consumeOne<{ userId: string }>(query);
      if (ended) await audit.signedOut(tx, ended.userId);
    });
  };

  const update = async <T>(query: UpdateQuery): Promise<T | null> => {
    const turnedTo: unknown = query.update.twoFactorEnabled;
    if (query.model !== 'user' || typeof turnedTo !== 'boolean') return adapter.update<T>(query);
    return db.transaction(async (tx) => {
      const inTx = adapterIn(tx);
      const before = await inTx.findOne<{ id: string; twoFactorEnabled: boolean }>({
        model: 'user',
        where: query.where,
      });
      const updated = await inTx.update<T>(query);
      if (before && before.twoFactorEnabled !== turnedTo)
        await audit.secondFactorTurned(tx, before.id, turnedTo);
      return updated;
    });
  };

  return { ...adapter, create, delete: deleteRow, update };
}

function refusalCode(returned: unknown): string | undefined {
  if (!isAPIError(returned)) return undefined;
  const code = (returned.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Failed sign-ins in the audit log: a wrong password for an existing user, a wrong second-factor
 * code at sign-in (not at enrolment, where the member is signed in already). Whether the user has an
 * organisation to tell is the audit's to decide; an unknown address records nothing anywhere.
 */
export function signInFailures(audit: IdentityAudit): BetterAuthPlugin {
  return {
    id: 'audit-failed-sign-ins',
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/sign-in/email',
          handler: createAuthMiddleware(async (ctx) => {
            if (refusalCode(ctx.context.returned) !== 'INVALID_EMAIL_OR_PASSWORD') return;
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            if (typeof email !== 'string') return;
            await audit.signInFailed({ email: email.trim().toLowerCase() }, 'password', 'wrong_password');
          }),
        },
        {
          matcher: (context) => SECOND_FACTOR_PATHS.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const code = refusalCode(ctx.context.returned);
            if (code !== 'INVALID_CODE' && code !== 'INVALID_BACKUP_CODE') return;
            if (await getSessionFromCtx(ctx)) return;
            const userId = await challengedUserId(ctx);
            if (userId) await audit.signInFailed({ userId }, 'two_factor', 'wrong_code');
          }),
        },
      ],
    },
  };
}
