import { isIP } from 'node:net';
import path from 'node:path';
import { PAYMENT_PROVIDERS, REGION_KEYS, type RegionKey } from '@portal/contracts';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined))
  .pipe(z.url().optional());

/** Google's OpenID issuer: sign-in discovers its endpoints from here unless GOOGLE_ISSUER names another. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** Where the portal hosts the sandbox payment gateway when CARD_SANDBOX_URL names none. */
export const EMBEDDED_CARD_SANDBOX_PATH = '/card-sandbox';

const sandboxKey = (prefix: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${prefix}[A-Za-z0-9_-]{16,200}$`),
      `must be ${prefix} followed by at least 16 letters, digits, _ or -`,
    )
    .optional();

const stripeKey = (pattern: RegExp, prefixes: string) =>
  z.string().trim().regex(pattern, `must start with ${prefixes} followed by letters and digits`).optional();

/** Whether a Stripe key is one of test mode or of live mode. */
export const stripeKeyMode = (key: string): 'test' | 'live' => (/^[a-z]+_live_/.test(key) ? 'live' : 'test');

const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    PUBLIC_URL: optionalUrl,
    DATABASE_URL: optionalUrl,
    PORTAL_DATA_DIR: z.string().min(1).default('./data'),
    AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().min(3).default('Developer Portal <no-reply@portal.localhost>'),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    // The OpenID issuer Google sign-in discovers its endpoints from (a local provider in tests).
    GOOGLE_ISSUER: optionalUrl,
    // Origins of organisations' identity providers on a private network or loopback (comma-separated):
    // SSO refuses to fetch from such hosts otherwise (SSRF protection); public IdPs need nothing here.
    SSO_TRUSTED_IDP_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url().transform((origin) => new URL(origin).origin))),
    // DNS servers asked for the SSO email domains' TXT proofs (comma-separated IP addresses, each
    // optionally with :port, IPv6 as [address]:port); unset, the system's resolvers are asked.
    DNS_SERVERS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((server) => server.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().refine(isDnsServer, 'must be IP addresses, each optionally with :port'))),
    PRODUCT_NAME: z.string().min(1).default('Social'),
    // The seller's postal address printed under the product name on invoices, lines separated by `|`.
    SELLER_ADDRESS: z.string().default(''),
    DASHBOARD_URL: z.url().default('https://dashboard.example.com'),
    HELP_DEVELOPER_PORTAL_URL: z.url().default('https://developers.example.com'),
    HELP_DOCS_URL: z.url().default('https://docs.example.com'),
    HELP_COMMUNITY_URL: z.url().default('https://community.example.com'),
    HELP_FAQ_URL: z.url().default('https://docs.example.com/faq'),
    HELP_MANAGE_COMMUNITY_URL: z.url().default('https://docs.example.com/social/manage-community'),
    HELP_CREATE_CHANNEL_URL: z.url().default('https://docs.example.com/chat/create-channel'),
    WEB_DIST_DIR: z.string().optional(),
    SERVER_RENDERS_PER_SECOND: z.coerce.number().int().min(0).default(100),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
    RATE_LIMIT_MAX_PER_IP: z.coerce.number().int().positive().default(30),
    RATE_LIMIT_MAX_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
    // Mail a client can make the portal send (verification, reset, invitations), per hour.
    RATE_LIMIT_MAIL_PER_ADDRESS: z.coerce.number().int().positive().default(5),
    RATE_LIMIT_MAIL_PER_IP: z.coerce.number().int().positive().default(50),
    // Where every instance counts the limits above: Redis when set, else the portal's database.
    REDIS_URL: optionalUrl,
    // Put before every key the portal writes to Redis, so several portals can share one server.
    REDIS_KEY_PREFIX: z.string().default('portal:'),
    // Declined (or unanswered) card attempts — saves, top-ups, invoice payments — allowed within 10
    // minutes, counted in the database (docs/security.md, decision 031).
    CARD_ATTEMPTS_PER_MEMBER: z.coerce.number().int().positive().default(3),
    CARD_ATTEMPTS_PER_ORGANIZATION: z.coerce.number().int().positive().default(5),
    CARD_ATTEMPTS_PER_IP: z.coerce.number().int().positive().default(10),
    // Peers whose X-Forwarded-For is believed (Fastify trustProxy): none by default, so a client
    // cannot pick its own address for the per-IP limits; name the proxy's address when there is one.
    TRUST_PROXY: z.string().trim().min(1).default('false'),
    // The bearer token Prometheus scrapes /metrics with from another machine; unset, loopback only.
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // How long SIGTERM waits for requests and jobs under way before the server exits anyway.
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(30),
    // The development outbox shows every mailed code: `auto` mounts it only on a loopback HOST.
    DEV_MAILBOX: z.enum(['auto', 'true', 'false']).default('auto'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    REGION_SG_URL: optionalUrl,
    REGION_EU_URL: optionalUrl,
    REGION_US_URL: optionalUrl,
    REGION_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // The operator CLI's bearer token; without it one is generated once into the data dir.
    OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    // How long one provisioning attempt waits for the region to report the network active.
    REGION_PROVISIONING_POLL_MS: z.coerce.number().int().min(0).default(10_000),
    // Seconds before a failed provisioning attempt is retried (doubled on each retry).
    PROVISIONING_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(5),
    // Retries of one provisioning job; when they are used up the sweep below starts a new job.
    PROVISIONING_RETRY_LIMIT: z.coerce.number().int().min(0).default(100),
    // How often applications still initializing without a live job are found and re-enqueued.
    PROVISIONING_SWEEP_SECONDS: z.coerce.number().int().positive().default(300),
    // How often the billing schedule looks for due work (the day's usage import, a closed month
    // to import and bill, flat-rate invoices overdue); 0 turns it off.
    BILLING_SCHEDULE_SECONDS: z.coerce.number().int().min(0).default(3600),
    // How long the organisation audit log keeps an entry; a daily job deletes older ones.
    AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
    // The card gateway: the sandbox (hosted at /card-sandbox unless CARD_SANDBOX_URL names another)
    // or Stripe.
    PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('sandbox'),
    CARD_SANDBOX_URL: optionalUrl,
    // The sandbox's keys; without them the hosted sandbox's are generated once into the data dir.
    CARD_SANDBOX_SECRET_KEY: sandboxKey('sk_sandbox_'),
    CARD_SANDBOX_PUBLISHABLE_KEY: sandboxKey('pk_sandbox_'),
    STRIPE_SECRET_KEY: stripeKey(/^(sk|rk)_(test|live)_\w+$/, 'sk_test_, sk_live_ or a restricted rk_ key'),
    STRIPE_PUBLISHABLE_KEY: stripeKey(/^pk_(test|live)_\w+$/, 'pk_test_ or pk_live_'),
    // Signs the webhook's events (the endpoint's signing secret in Stripe's dashboard).
    STRIPE_WEBHOOK_SECRET: stripeKey(/^whsec_\w+$/, 'whsec_'),
    // Stripe's API host, for a local stand-in in tests; unset means Stripe's own.
    STRIPE_API_HOST: optionalUrl,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required when NODE_ENV=production' });
    }
    if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when NODE_ENV=production' });
    }
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'],
        message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
      });
    }
    if (env.GOOGLE_ISSUER && !isSecureIssuer(env.GOOGLE_ISSUER)) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_ISSUER'],
        message: 'must be an https address (http only on a loopback host), without a query or fragment',
      });
    }
    if (env.PAYMENT_PROVIDER === 'sandbox' && env.CARD_SANDBOX_URL) {
      for (const key of ['CARD_SANDBOX_SECRET_KEY', 'CARD_SANDBOX_PUBLISHABLE_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: "is required when CARD_SANDBOX_URL is set (that sandbox's key)",
          });
      }
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENT_PROVIDER=stripe' });
      }
      // A test key with a live one takes cards in one mode and charges them in the other: nothing works.
      const { STRIPE_SECRET_KEY: secret, STRIPE_PUBLISHABLE_KEY: publishable } = env;
      if (secret && publishable && stripeKeyMode(secret) !== stripeKeyMode(publishable))
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_PUBLISHABLE_KEY'],
          message: `is a ${stripeKeyMode(publishable)} key and STRIPE_SECRET_KEY a ${stripeKeyMode(secret)} one`,
        });
    }
  });

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** GOOGLE_ISSUER without a trailing slash; Google's own by default. */
  issuer: string;
  /** Where the endpoints and signing keys are read from, once at start. */
  discoveryUrl: string;
}

export interface CardSandboxConfig {
  /** The sandbox's API base, without a trailing slash: CARD_SANDBOX_URL or the portal's own /card-sandbox. */
  baseUrl: string;
  /** Whether the portal hosts it (no CARD_SANDBOX_URL). */
  embedded: boolean;
  /** Where browsers send card data: a path on the portal's origin when hosted, else the sandbox's address. */
  tokenizeUrl: string;
  /** Configured keys; unset (hosted only), they are generated once into the data dir. */
  secretKey: string | undefined;
  publishableKey: string | undefined;
}

export type PaymentsConfig =
  | { provider: 'sandbox'; cardSandbox: CardSandboxConfig }
  | { provider: 'stripe'; stripe: StripeConfig };

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  /** STRIPE_WEBHOOK_SECRET: verifies the signature of the events Stripe posts to the webhook. */
  webhookSecret: string;
  /** STRIPE_API_HOST: a stand-in for Stripe's API (tests); unset means Stripe's own. */
  apiHost: string | undefined;
}

/** How many declined or unanswered card attempts each may have within the card-attempt window. */
export interface CardAttemptLimits {
  member: number;
  organization: number;
  ip: number;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  authSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: GoogleConfig | undefined;
  /** SSO_TRUSTED_IDP_ORIGINS: private-network identity providers organisations may connect. */
  ssoTrustedIdpOrigins: string[];
  /** DNS_SERVERS: the servers asked for SSO email domain proofs; empty means the system's. */
  dnsServers: string[];
  productName: string;
  /** The seller's address on invoices, one entry a line; empty when unset. */
  sellerAddressLines: string[];
  dashboardUrl: string;
  helpLinks: {
    developerPortal: string;
    documentation: string;
    communityHub: string;
    faq: string;
    manageCommunity: string;
    createChannel: string;
  };
  webDistDir: string | undefined;
  /** Pages rendered on the server in any one second; past it they go out unrendered (decision 026). */
  serverRendersPerSecond: number;
  rateLimit: {
    windowSeconds: number;
    maxPerIp: number;
    maxPerAccount: number;
    mailPerAddress: number;
    mailPerIp: number;
    /** REDIS_URL: the limits are counted in Redis; unset, in the database. */
    redisUrl: string | undefined;
    redisKeyPrefix: string;
  };
  cardAttemptLimits: CardAttemptLimits;
  trustProxy: boolean | string;
  /** METRICS_TOKEN: opens /metrics to a scraper elsewhere; without it only loopback may read them. */
  metricsToken: string | undefined;
  /** What SIGTERM waits for requests and jobs under way, in seconds. */
  shutdownTimeoutSeconds: number;
  /** Whether /dev/mailbox is mounted: only outside production, on a loopback host unless DEV_MAILBOX=true. */
  devMailbox: boolean;
  logLevel: string;
  /** Each region's API base address, without a trailing slash. */
  regionUrls: Record<RegionKey, string>;
  /** Regions without a REGION_*_URL: the portal hosts their emulator under /regions/{key}. */
  embeddedRegions: RegionKey[];
  regionAdminToken: string | undefined;
  operatorToken: string | undefined;
  regionProvisioningPollMs: number;
  provisioningRetryDelaySeconds: number;
  provisioningRetryLimit: number;
  provisioningSweepSeconds: number;
  /** 0 when the billing schedule is off (the jobs still run when sent). */
  billingScheduleSeconds: number;
  /** AUDIT_LOG_RETENTION_DAYS: entries older than this are deleted by a daily job. */
  auditLogRetentionDays: number;
  payments: PaymentsConfig;
}

export class ConfigError extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith('127.');
}

/** A DNS server as node:dns takes it: an IP address, with an optional port (`[…]:port` for IPv6). */
function isDnsServer(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const withPort = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!withPort) return false;
  const [, ipv6, ipv4, port] = withPort;
  const portNumber = Number(port);
  return portNumber >= 1 && portNumber <= 65_535 && (ipv6 ? isIP(ipv6) === 6 : isIP(ipv4 ?? '') === 4);
}

/** An OpenID issuer is an https URL without query or fragment; plain http only for a provider on this machine. */
function isSecureIssuer(value: string): boolean {
  // Not a URL at all is reported by the field's own check.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  if (url.search || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, '')));
}

function parseTrustProxy(value: string): boolean | string {
  return value === 'true' || value === 'false' ? value === 'true' : value;
}

/** Parses the environment once at start; a bad value fails with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join('.') || 'environment';
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? 'is not valid'}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const regionUrl = (configured: string | undefined, segment: string) =>
    (configured ?? `${publicUrl}/regions/${segment}`).replace(/\/$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.PORTAL_DATA_DIR),
    authSecret: e.AUTH_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: googleConfig(e),
    ssoTrustedIdpOrigins: e.SSO_TRUSTED_IDP_ORIGINS,
    dnsServers: e.DNS_SERVERS,
    productName: e.PRODUCT_NAME,
    sellerAddressLines: e.SELLER_ADDRESS.split('|')
      .map((line) => line.trim())
      .filter(Boolean),
    dashboardUrl: e.DASHBOARD_URL,
    helpLinks: {
      developerPortal: e.HELP_DEVELOPER_PORTAL_URL,
      documentation: e.HELP_DOCS_URL,
      communityHub: e.HELP_COMMUNITY_URL,
      faq: e.HELP_FAQ_URL,
      manageCommunity: e.HELP_MANAGE_COMMUNITY_URL,
      createChannel: e.HELP_CREATE_CHANNEL_URL,
    },
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    serverRendersPerSecond: e.SERVER_RENDERS_PER_SECOND,
    rateLimit: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      maxPerIp: e.RATE_LIMIT_MAX_PER_IP,
      maxPerAccount: e.RATE_LIMIT_MAX_PER_ACCOUNT,
      mailPerAddress: e.RATE_LIMIT_MAIL_PER_ADDRESS,
      mailPerIp: e.RATE_LIMIT_MAIL_PER_IP,
      redisUrl: e.REDIS_URL,
      redisKeyPrefix: e.REDIS_KEY_PREFIX,
    },
    cardAttemptLimits: {
      member: e.CARD_ATTEMPTS_PER_MEMBER,
      organization: e.CARD_ATTEMPTS_PER_ORGANIZATION,
      ip: e.CARD_ATTEMPTS_PER_IP,
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
    devMailbox: e.NODE_ENV !== 'production' && (e.DEV_MAILBOX === 'true' || (e.DEV_MAILBOX === 'auto' && isLoopbackHost(e.HOST))),
    logLevel: e.LOG_LEVEL,
    regionUrls: {
      SG: regionUrl(e.REGION_SG_URL, 'sg'),
      EU: regionUrl(e.REGION_EU_URL, 'eu'),
      US: regionUrl(e.REGION_US_URL, 'us'),
    },
    embeddedRegions: REGION_KEYS.filter((key) => !e[`REGION_${key}_URL`]),
    regionAdminToken: e.REGION_ADMIN_TOKEN,
    operatorToken: e.OPERATOR_TOKEN,
    regionProvisioningPollMs: e.REGION_PROVISIONING_POLL_MS,
    provisioningRetryDelaySeconds: e.PROVISIONING_RETRY_DELAY_SECONDS,
    provisioningRetryLimit: e.PROVISIONING_RETRY_LIMIT,
    provisioningSweepSeconds: e.PROVISIONING_SWEEP_SECONDS,
    billingScheduleSeconds: e.BILLING_SCHEDULE_SECONDS,
    auditLogRetentionDays: e.AUDIT_LOG_RETENTION_DAYS,
    payments: paymentsConfig(e, publicUrl),
  };
}

function googleConfig(e: z.infer<typeof ConfigSchema>): GoogleConfig | undefined {
  if (!e.GOOGLE_CLIENT_ID || !e.GOOGLE_CLIENT_SECRET) return undefined;
  const issuer = (e.GOOGLE_ISSUER ?? GOOGLE_ISSUER).replace(/\/+$/, '');
  return {
    clientId: e.GOOGLE_CLIENT_ID,
    clientSecret: e.GOOGLE_CLIENT_SECRET,
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
  };
}

function paymentsConfig(e: z.infer<typeof ConfigSchema>, publicUrl: string): PaymentsConfig {
  if (e.PAYMENT_PROVIDER === 'stripe') {
    return {
      provider: 'stripe',
      // Checked above: all three are set for Stripe.
      stripe: {
        secretKey: e.STRIPE_SECRET_KEY ?? '',
        publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? '',
        webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
        apiHost: e.STRIPE_API_HOST,
      },
    };
  }
  const remote = e.CARD_SANDBOX_URL?.replace(/\/+$/, '');
  return {
    provider: 'sandbox',
    cardSandbox: {
      baseUrl: remote ?? `${publicUrl}${EMBEDDED_CARD_SANDBOX_PATH}`,
      embedded: remote === undefined,
      tokenizeUrl: `${remote ?? EMBEDDED_CARD_SANDBOX_PATH}/v1/tokens`,
      secretKey: e.CARD_SANDBOX_SECRET_KEY,
      publishableKey: e.CARD_SANDBOX_PUBLISHABLE_KEY,
    },
  };
}
