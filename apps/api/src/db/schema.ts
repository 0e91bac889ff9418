import {
  ACCOUNT_STATUSES,
  AUDIT_ACTIONS,
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTOR_KINDS,
  AUDIT_TARGET_TYPES,
  APPLICATION_STATES,
  CARD_TYPES,
  CONTRACT_TYPES,
  INACTIVE_REASONS,
  INVITATION_STATUSES,
  INVOICE_TYPES,
  PAYMENT_PROVIDERS,
  PLAN_KEYS,
  REGION_KEYS,
  ROLE_IDS,
  TOUR_OUTCOMES,
  TRANSACTION_ID_PADDING,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  USAGE_ALERT_KINDS,
  type AuditChanges,
  type UsageAlert,
} from '@portal/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  numeric,
  primaryKey,
  pgTable,
  serial,
  text,
  jsonb,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
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
  /** Set once the member has confirmed an authenticator app (better-auth's two-factor plugin). */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
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

/**
 * A member's authenticator (TOTP) secret and backup codes, both encrypted with the auth secret by
 * better-auth's two-factor plugin; `verified` turns true when the first code confirms the app. The
 * failure count and lock cap wrong codes per account across sign-ins (docs/security.md).
 */
export const twoFactor = pgTable('two_factor', {
  id: text('id').primaryKey(),
  secret: text('secret').notNull(),
  backupCodes: text('backup_codes').notNull(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: 'cascade' }),
  verified: boolean('verified').notNull().default(true),
  failedVerificationCount: integer('failed_verification_count').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * Authenticator codes already accepted, so that each is used once (docs/security.md): an HMAC of the
 * user and the code, never the code, kept a few minutes (longer than the 90 s a code is accepted).
 * The primary key makes two simultaneous uses of one code claim it once.
 */
export const usedTotpCode = pgTable(
  'used_totp_code',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

export const jwks = pgTable('jwks', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  alg: text('alg'),
  crv: text('crv'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
});

/** The organisation a row belongs to; its rows go with it. */
const organizationIdColumn = () =>
  text('organization_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' });

/** The application a row belongs to; its rows go with it. */
const applicationIdColumn = () =>
  text('application_id')
    .notNull()
    .references(() => application.id, { onDelete: 'cascade' });

export const organization = pgTable(
  'organization',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
    contractType: text('contract_type', { enum: CONTRACT_TYPES }).notNull().default('payg'),
    accountStatus: text('account_status', { enum: ACCOUNT_STATUSES }).notNull().default('active'),
    /** Why the account is inactive (set exactly when it is): what may make it active again. */
    inactiveReason: text('inactive_reason', { enum: INACTIVE_REASONS }),
    isFilled: boolean('is_filled').notNull().default(false),
    trialEndAt: timestamp('trial_end_at', { withTimezone: true }),
    memberLimit: integer('member_limit').notNull().default(10),
    applicationLimit: integer('application_limit').notNull().default(10),
    enforcedSso: boolean('enforced_sso').notNull().default(false),
    /** Beyond the spec: members who sign in with a password or Google must use a second factor. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
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
    // PAYG: the prepaid balance, spent by monthly service charges down to the minimum (below 0 is an
    // overdraft the operator allows).
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    minimumBalanceCents: bigint('minimum_balance_cents', { mode: 'number' }).notNull().default(0),
    // The transaction left due whose inactive-account notice is still to be sent: set with the status
    // in the same database transaction and cleared once the notice is queued, so a crash in between
    // leaves it for the next sweep instead of losing the notice.
    inactiveNoticeTransactionId: bigint('inactive_notice_transaction_id', { mode: 'number' }),
    /** The organisation as a customer of the payment gateway, made when its first card is saved. */
    gatewayCustomerRef: text('gateway_customer_ref'),
    /**
     * Whether the organisation has a saved card: kept with the cards in the same database transaction,
     * so the session check reads it with the organisation instead of counting cards on every request.
     */
    hasPaymentProfile: boolean('has_payment_profile').notNull().default(false),
    /** The month (`YYYY-MM`) in which its super-admins were last warned that the balance runs low. */
    lowBalanceWarnedFor: text('low_balance_warned_for'),
    // Flat-rate: the licence (its MAU and monthly fee), the price plan of each MAU above it and the
    // support plan with its monthly fee; PAYG leaves them at their defaults.
    licenseMau: integer('license_mau').notNull().default(0),
    licenseFeeCents: bigint('license_fee_cents', { mode: 'number' }).notNull().default(0),
    contractPlan: text('contract_plan', { enum: PLAN_KEYS }).notNull().default('advance'),
    supportPlan: text('support_plan').notNull().default(''),
    supportPlanFeeCents: bigint('support_plan_fee_cents', { mode: 'number' }).notNull().default(0),
    // Organisation SSO (beyond the spec): the domain people type on /sign-in-sso (unique, compared
    // lowercase), addresses allowed besides the owned email domains (sso_email_domain), and what a
    // member made at their first SSO sign-in gets (applications in sso_default_application_scope).
    ssoDomain: text('sso_domain'),
    ssoAllowedEmails: jsonb('sso_allowed_emails').$type<string[]>().notNull().default([]),
    ssoDefaultRoleId: text('sso_default_role_id', { enum: ROLE_IDS }).notNull().default('portal.developer'),
    ssoDefaultAllApplications: boolean('sso_default_all_applications').notNull().default(true),
    privacyPolicyAcceptedAt: timestamp('privacy_policy_accepted_at', { withTimezone: true }),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('organization_sso_domain_idx').on(sql`lower(${t.ssoDomain})`),
    check(
      'organization_inactive_reason_check',
      sql`(${t.accountStatus} = 'inactive') = (${t.inactiveReason} IS NOT NULL)`,
    ),
  ],
);

export const MEMBER_TOUR_STATES = ['not_offered', 'offered', ...TOUR_OUTCOMES] as const;

export const member = pgTable(
  'member',
  {
    id: text('id').primaryKey(),
    organizationId: organizationIdColumn(),
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
    // The guided tour: offered to the organisation's creator once it is set up, until they finish or
    // skip it; kept here so another device does not offer it again (decision 039).
    tourState: text('tour_state', { enum: MEMBER_TOUR_STATES }).notNull().default('not_offered'),
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
    organizationId: organizationIdColumn(),
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
    applicationId: applicationIdColumn(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.applicationId] })],
);

/**
 * An organisation's identity provider, in the shape @better-auth/sso reads (its protocol settings as
 * JSON text): one per organisation, its providerId fixed per organisation so the URLs pasted into
 * the identity provider never change. userId is the super-admin who connected it.
 */
export const ssoProvider = pgTable('sso_provider', {
  id: text('id').primaryKey(),
  issuer: text('issuer').notNull(),
  oidcConfig: text('oidc_config'),
  samlConfig: text('saml_config'),
  userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
  providerId: text('provider_id').notNull().unique(),
  organizationId: text('organization_id')
    .notNull()
    .unique()
    .references(() => organization.id, { onDelete: 'cascade' }),
  /** The organisation's owned email domains, comma-separated (the plugin links existing users from these). */
  domain: text('domain').notNull(),
  /**
   * Always true: the plugin links an existing user to an SSO sign-in only from a provider whose
   * domain is verified; the portal's own rules (sso.ts) decide who may be linked.
   */
  domainVerified: boolean('domain_verified').notNull().default(true),
  ...timestamps,
});

/**
 * An email domain an organisation lists for SSO. It is pending until the organisation proves it owns
 * it (a DNS TXT record holding the token); then it is verified, and no other organisation may verify
 * it. Pending claims block nobody: several organisations may list the same domain while none proves it.
 */
export const ssoEmailDomain = pgTable(
  'sso_email_domain',
  {
    organizationId: organizationIdColumn(),
    domain: text('domain').notNull(),
    /** The value of the TXT record `portal-verification=<token>` at `_portal-challenge.<domain>`. */
    verificationToken: text('verification_token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** When DNS was last asked, and what it answered when the record was not found. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checkError: text('check_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.domain] }),
    uniqueIndex('sso_email_domain_verified_idx')
      .on(t.domain)
      .where(sql`${t.verifiedAt} IS NOT NULL`),
    index('sso_email_domain_domain_idx').on(t.domain),
  ],
);

/** The applications a member made at their first SSO sign-in may see, when not all of them. */
export const ssoDefaultApplicationScope = pgTable(
  'sso_default_application_scope',
  {
    organizationId: organizationIdColumn(),
    applicationId: applicationIdColumn(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.applicationId] })],
);

/**
 * An invitation to join an organisation. Only a hash of its code is kept; resending replaces the
 * code. applicationIds null means access to all applications.
 */
export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    organizationId: organizationIdColumn(),
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

/**
 * The ledger: every money movement of an organisation is one row (§3 Transaction), amounts in
 * cents. The id is the sequence number shown padded; `padded_id` keeps that form for the prefix
 * search. A month is billed once per organisation and type: the unique key on organisation, billing
 * cycle and type is what a second or concurrent billing run collides with (rows without a cycle,
 * such as top-ups, never collide: NULLs are distinct).
 */
export const ledgerTransaction = pgTable(
  'ledger_transaction',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paddedId: text('padded_id')
      .notNull()
      .generatedAlwaysAs(
        sql.raw(`lpad(id::text, greatest(${TRANSACTION_ID_PADDING}, length(id::text)), '0')`),
      ),
    organizationId: organizationIdColumn(),
    type: text('type', { enum: TRANSACTION_TYPES }).notNull(),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    /** What the transaction comes to, tax included. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** What has been paid of it (from the balance or by card). */
    paymentAmountCents: bigint('payment_amount_cents', { mode: 'number' }).notNull().default(0),
    taxAmountCents: bigint('tax_amount_cents', { mode: 'number' }).notNull().default(0),
    taxRatePercent: numeric('tax_rate_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    /** The credit that covers part of this one: a service charge's trial credit, a top-up's free credit. */
    creditTransactionId: bigint('credit_transaction_id', { mode: 'number' }).references(
      (): AnyPgColumn => ledgerTransaction.id,
    ),
    notes: text('notes').notNull().default(''),
    /** The caller's name for a request that moves money, so repeating it moves nothing more. */
    idempotencyKey: text('idempotency_key'),
    invoiceType: text('invoice_type', { enum: INVOICE_TYPES }),
    billingCycle: text('billing_cycle'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ledger_transaction_cycle_type_idx').on(t.organizationId, t.billingCycle, t.type),
    uniqueIndex('ledger_transaction_idempotency_key_idx').on(t.organizationId, t.idempotencyKey),
    index('ledger_transaction_organization_created_idx').on(t.organizationId, t.createdAt, t.id),
    // The id search matches a prefix and answers in the order of the ids, both compared byte by byte
    // (COLLATE "C", paddedIdBytes in the repository), so that this one index serves both whatever the
    // database's collation.
    index('ledger_transaction_organization_padded_id_c_idx').on(
      t.organizationId,
      sql`(${t.paddedId} COLLATE "C")`,
    ),
    check('ledger_transaction_billing_cycle_check', sql`${t.billingCycle} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check(
      'ledger_transaction_amounts_check',
      sql`${t.amountCents} >= 0 AND ${t.paymentAmountCents} >= 0 AND ${t.taxAmountCents} >= 0`,
    ),
  ],
);

/**
 * The lines of a transaction's invoice: one per application on a MAU-based invoice (applicationId
 * set, its name and plan label as billed), one per component on a component-based one. What the
 * invoice said is kept as written, so renaming an application or a support plan leaves it unchanged.
 */
export const invoiceLine = pgTable(
  'invoice_line',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransaction.id, { onDelete: 'cascade' }),
    applicationId: text('application_id'),
    description: text('description').notNull(),
    productName: text('product_name').notNull().default(''),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    unitPriceMicroUsd: bigint('unit_price_micro_usd', { mode: 'number' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [index('invoice_line_transaction_idx').on(t.transactionId)],
);

/**
 * Each change of an organisation's prepaid balance, written in the same database transaction as
 * the ledger row that causes it and the balance itself.
 */
export const balanceMovement = pgTable(
  'balance_movement',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransaction.id, { onDelete: 'cascade' }),
    /** Negative when money leaves the balance. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('balance_movement_organization_created_idx').on(t.organizationId, t.createdAt)],
);

/**
 * A saved card: what the gateway tells about it (brand, last 4 digits, expiry) and its reference
 * there. The card number never reaches the portal. At most one card per organisation is the default.
 */
export const paymentProfile = pgTable(
  'payment_profile',
  {
    id: text('id').primaryKey(),
    organizationId: organizationIdColumn(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    paymentMethodRef: text('payment_method_ref').notNull(),
    cardType: text('card_type', { enum: CARD_TYPES }).notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_profile_single_default_idx')
      .on(t.organizationId)
      .where(sql`${t.isDefault}`),
    index('payment_profile_organization_created_idx').on(t.organizationId, t.createdAt),
  ],
);

export const PAYMENT_ATTEMPT_PURPOSES = ['topup', 'invoice'] as const;
export const PAYMENT_ATTEMPT_STATUSES = ['pending', 'succeeded', 'refused'] as const;

/**
 * A card charge, written (pending, with the idempotency key the gateway is given) before the gateway
 * is called and settled after, with the ledger rows it causes in the same database transaction. One
 * left pending by a crash or a lost answer is settled by asking the gateway again with its key.
 */
export const paymentAttempt = pgTable(
  'payment_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    purpose: text('purpose', { enum: PAYMENT_ATTEMPT_PURPOSES }).notNull(),
    /** The invoice being paid. */
    invoiceTransactionId: bigint('invoice_transaction_id', { mode: 'number' }).references(
      () => ledgerTransaction.id,
    ),
    /** What the card is charged, tax included. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** A top-up's amount, free credit and tax, as its summary showed them. */
    topUpAmountCents: bigint('top_up_amount_cents', { mode: 'number' }).notNull().default(0),
    freeCreditCents: bigint('free_credit_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    taxRatePercent: numeric('tax_rate_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    /** The card: a one-time token from the card form, or a saved card and its gateway customer. */
    sourceToken: text('source_token'),
    paymentMethodRef: text('payment_method_ref'),
    customerRef: text('customer_ref'),
    status: text('status', { enum: PAYMENT_ATTEMPT_STATUSES }).notNull().default('pending'),
    chargeRef: text('charge_ref'),
    refusal: text('refusal'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** The ledger transaction the charge paid for: the top-up written, or the invoice. */
    resultTransactionId: bigint('result_transaction_id', { mode: 'number' }).references(
      () => ledgerTransaction.id,
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_attempt_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('payment_attempt_organization_idx').on(t.organizationId, t.createdAt),
  ],
);

/** Monthly active users of an application in a billing cycle, as last imported from its region. */
export const applicationUsage = pgTable(
  'application_usage',
  {
    organizationId: organizationIdColumn(),
    applicationId: applicationIdColumn(),
    billingCycle: text('billing_cycle').notNull(),
    mau: integer('mau').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.billingCycle] }),
    index('application_usage_organization_cycle_idx').on(t.organizationId, t.billingCycle),
    check('application_usage_mau_check', sql`${t.mau} >= 0`),
  ],
);

export const CARD_ATTEMPT_PURPOSES = ['card', 'topup', 'invoice'] as const;
export const CARD_ATTEMPT_OUTCOMES = ['pending', 'succeeded', 'declined'] as const;

/**
 * One use of a card (saving it, a top-up, paying an invoice), counted against the card-attempt limits
 * per organisation, member and IP address: written pending before the gateway is asked, so attempts
 * made at once are counted too, and settled with the gateway's answer.
 */
export const cardAttempt = pgTable(
  'card_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    memberId: text('member_id'),
    ip: text('ip').notNull(),
    purpose: text('purpose', { enum: CARD_ATTEMPT_PURPOSES }).notNull(),
    outcome: text('outcome', { enum: CARD_ATTEMPT_OUTCOMES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('card_attempt_organization_idx').on(t.organizationId, t.createdAt),
    index('card_attempt_member_idx').on(t.memberId, t.createdAt),
    index('card_attempt_ip_idx').on(t.ip, t.createdAt),
  ],
);

/**
 * The request limits' and lockouts' counters (decision 033), shared by every portal instance: one
 * row per key (`ip:sign-in:<address>`, `sign-in-failures:<address>:<account>`, …) and fixed window,
 * counted by one atomic upsert per hit. Rows whose window has ended count no more; a scheduled job
 * removes them.
 */
export const rateLimitCounter = pgTable(
  'rate_limit_counter',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counter_window_ends_at_idx').on(t.windowEndsAt)],
);

/**
 * Secrets the portal generates when the configuration names none (the auth secret, the operator
 * token, …), on PostgreSQL: the first instance to start writes each, every other reads it, so all
 * instances sign and check with the same (decision 033). PGlite keeps them in the data dir.
 */
export const generatedSecret = pgTable('generated_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The organisation audit log (decision 042): one row per change a member, an operator or the portal
 * made, written in the transaction of the change by modules/audit-log alone, never updated, and
 * deleted only by the retention job. Times are kept to the millisecond so that a page's cursor
 * (time and id, as JavaScript reads them) names a row exactly. Every list reads newest first
 * within one organisation, so each index starts with the organisation, ends with (time, id)
 * descending, and puts one filter's columns between: a filtered page is one index range read in
 * order, stopping at the page's size, however many entries the organisation has. The BRIN index
 * serves the retention job's cut by time across organisations at almost no cost to a write (rows
 * arrive in time order).
 */
export const auditLogEntry = pgTable(
  'audit_log_entry',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actorKind: text('actor_kind', { enum: AUDIT_ACTOR_KINDS }).notNull(),
    /** Not a reference: the entry outlives the member. */
    actorMemberId: text('actor_member_id'),
    actorEmail: text('actor_email'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    actionGroup: text('action_group', { enum: AUDIT_ACTION_GROUPS }).notNull(),
    targetType: text('target_type', { enum: AUDIT_TARGET_TYPES }).notNull(),
    targetId: text('target_id').notNull(),
    /** The target's name when the change was made, so the entry still reads after a rename or removal. */
    targetName: text('target_name').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    changes: jsonb('changes').$type<AuditChanges>().notNull(),
  },
  (t) => [
    index('audit_log_entry_organization_created_idx').on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index('audit_log_entry_organization_group_idx').on(
      t.organizationId,
      t.actionGroup,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('audit_log_entry_organization_action_idx').on(t.organizationId, t.action, t.createdAt.desc(), t.id.desc()),
    index('audit_log_entry_organization_actor_idx').on(
      t.organizationId,
      t.actorMemberId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('audit_log_entry_organization_target_idx').on(
      t.organizationId,
      t.targetType,
      t.targetId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    // A target type without an id, and the rarer actor kinds (operators, the system), are pages of
    // their own: without these they read the whole organisation's log (0019).
    index('audit_log_entry_organization_target_type_idx').on(
      t.organizationId,
      t.targetType,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('audit_log_entry_organization_actor_kind_idx').on(
      t.organizationId,
      t.actorKind,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('audit_log_entry_created_brin_idx').using('brin', t.createdAt),
  ],
);

/**
 * An organisation's usage alerts as its super-admins saved them, the set and the extra recipients
 * each saved whole (decision 044). No row: the contract's defaults.
 */
export const usageAlertSetting = pgTable('usage_alert_setting', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organization.id, { onDelete: 'cascade' }),
  alerts: jsonb('alerts').$type<UsageAlert[]>().notNull(),
  recipients: jsonb('recipients').$type<string[]>().notNull(),
  ...timestamps,
});

/**
 * A threshold crossed in a billing cycle. The unique key is what makes each threshold noticed once a
 * month across servers and retries; `mailedAt` is set once its mail is queued, so a crash in between
 * leaves it for the next check.
 */
export const usageAlertNotice = pgTable(
  'usage_alert_notice',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: organizationIdColumn(),
    kind: text('kind', { enum: USAGE_ALERT_KINDS }).notNull(),
    threshold: bigint('threshold', { mode: 'number' }).notNull(),
    /** The figure when the threshold was crossed: MAU, or USD cents. */
    figure: bigint('figure', { mode: 'number' }).notNull(),
    /** The licence's MAU then, what a percentage alert was a percentage of. */
    licenseMau: integer('license_mau').notNull(),
    billingCycle: text('billing_cycle').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('usage_alert_notice_once_idx').on(t.organizationId, t.kind, t.threshold, t.billingCycle),
    index('usage_alert_notice_unmailed_idx')
      .on(t.id)
      .where(sql`${t.mailedAt} IS NULL`),
  ],
);
