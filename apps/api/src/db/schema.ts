import {
  ACCOUNT_STATUSES,
  APPLICATION_STATES,
  CONTRACT_TYPES,
  INVITATION_STATUSES,
  PLAN_KEYS,
  REGION_KEYS,
  ROLE_IDS,
} from '@portal/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  primaryKey,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

// Identity tables, in the shape better-auth expects (model and field names are mapped in auth.ts).
export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  ...timestamps,
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/**
 * Guesses at one mailed code (`email-verification:<address>` or `forget-password:<address>`),
 * counted by one atomic upsert per guess so parallel guesses cannot share a count; reset when a new
 * code is sent.
 */
export const codeAttempt = pgTable('code_attempt', {
  identifier: text('identifier').primaryKey(),
  attempts: integer('attempts').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const jwks = pgTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  alg: text('alg'),
  crv: text('crv'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
});

export const organization = pgTable('organization', {
  id: text('id').primaryKey(),
  name: text('name').notNull().default(''),
  email: text('email').notNull(),
  contractType: text('contract_type', { enum: CONTRACT_TYPES }).notNull().default('payg'),
  accountStatus: text('account_status', { enum: ACCOUNT_STATUSES }).notNull().default('active'),
  isFilled: boolean('is_filled').notNull().default(false),
  trialEndAt: timestamp('trial_end_at', { withTimezone: true }),
  memberLimit: integer('member_limit').notNull().default(10),
  applicationLimit: integer('application_limit').notNull().default(10),
  enforcedSso: boolean('enforced_sso').notNull().default(false),
  isFreeCredit: boolean('is_free_credit').notNull().default(true),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  billingName: text('billing_name').notNull().default(''),
  billingAddress: text('billing_address').notNull().default(''),
  billingAddress2: text('billing_address2').notNull().default(''),
  billingCountry: text('billing_country').notNull().default(''),
  billingState: text('billing_state').notNull().default(''),
  billingCity: text('billing_city').notNull().default(''),
  billingZipCode: text('billing_zip_code').notNull().default(''),
  vatNumber: text('vat_number').notNull().default(''),
  privacyPolicyAcceptedAt: timestamp('privacy_policy_accepted_at', { withTimezone: true }),
  termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
  ...timestamps,
});

export const member = pgTable(
  'member',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    // One organisation per user (architecture: "Organisations: one per user").
    userId: text('user_id')
      .notNull()
      .unique()
      .references(() => user.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    roleId: text('role_id', { enum: ROLE_IDS }).notNull(),
    // False when the member is limited to the applications in member_application_scope.
    allApplications: boolean('all_applications').notNull().default(true),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('member_organization_id_idx').on(t.organizationId)],
);

/** The dev outbox: every mail the portal sends when SMTP_URL is unset. */
export const mailMessage = pgTable('mail_message', {
  id: serial('id').primaryKey(),
  toAddress: text('to_address').notNull(),
  fromAddress: text('from_address').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Tax rate per billing country; the row without a country is the default rate. */
export const taxRate = pgTable(
  'tax_rate',
  {
    id: serial('id').primaryKey(),
    countryCode: text('country_code').unique(),
    ratePercent: numeric('rate_percent', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    uniqueIndex('tax_rate_single_default_idx')
      .on(sql`(${t.countryCode} IS NULL)`)
      .where(sql`${t.countryCode} IS NULL`),
  ],
);

/** A top-up of at least startCents earns creditCents of free credit (highest matching tier). */
export const freeCreditTier = pgTable('free_credit_tier', {
  id: serial('id').primaryKey(),
  startCents: bigint('start_cents', { mode: 'number' }).notNull().unique(),
  creditCents: bigint('credit_cents', { mode: 'number' }).notNull(),
});

/** An organisation's application; provisioned in its region by the provision-application job. */
export const application = pgTable(
  'application',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    plan: text('plan', { enum: PLAN_KEYS }).notNull(),
    region: text('region', { enum: REGION_KEYS }).notNull(),
    state: text('state', { enum: APPLICATION_STATES }).notNull().default('initializing'),
    networkId: text('network_id'),
    consoleUrl: text('console_url'),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    // Kept for operators: how often the region was tried and why the last attempt failed.
    provisioningAttempts: integer('provisioning_attempts').notNull().default(0),
    lastProvisioningError: text('last_provisioning_error'),
  },
  (t) => [index('application_organization_created_idx').on(t.organizationId, t.createdAt)],
);

/** The applications a member whose allApplications is false may see. */
export const memberApplicationScope = pgTable(
  'member_application_scope',
  {
    memberId: text('member_id')
      .notNull()
      .references(() => member.id, { onDelete: 'cascade' }),
    applicationId: text('application_id')
      .notNull()
      .references(() => application.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.applicationId] })],
);

/**
 * An invitation to join an organisation. Only a hash of its code is kept; resending replaces the
 * code. applicationIds null means access to all applications.
 */
export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    roleId: text('role_id', { enum: ROLE_IDS }).notNull(),
    applicationIds: text('application_ids').array(),
    codeHash: text('code_hash').notNull().unique(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    invitedByMemberId: text('invited_by_member_id').references(() => member.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('invitation_organization_status_idx').on(t.organizationId, t.status),
    // One open invitation per address and organisation.
    uniqueIndex('invitation_open_email_idx')
      .on(t.organizationId, t.email)
      .where(sql`${t.status} IN ('pending', 'resent')`),
  ],
);
