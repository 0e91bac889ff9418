import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDirSecret } from '../src/auth/secret.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

const SECRET = 'a-production-secret-of-at-least-32-chars';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_1',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
  STRIPE_WEBHOOK_SECRET: 'whsec_1',
};

describe('loadConfig', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['AUTH_SECRET', { NODE_ENV: 'production' }],
    ['AUTH_SECRET', { AUTH_SECRET: 'short' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['RATE_LIMIT_MAX_PER_IP', { RATE_LIMIT_MAX_PER_IP: '0' }],
    ['GOOGLE_CLIENT_SECRET', { GOOGLE_CLIENT_ID: 'id' }],
    ['GOOGLE_ISSUER', { GOOGLE_ISSUER: 'accounts.example.com' }],
    ['GOOGLE_ISSUER', { GOOGLE_ISSUER: 'http://accounts.example.com' }],
    ['GOOGLE_ISSUER', { GOOGLE_ISSUER: 'https://accounts.example.com?tenant=1' }],
    ['REGION_EU_URL', { REGION_EU_URL: 'eu.example.com' }],
    ['REGION_ADMIN_TOKEN', { REGION_ADMIN_TOKEN: 'short' }],
    ['REGION_PROVISIONING_POLL_MS', { REGION_PROVISIONING_POLL_MS: '-1' }],
    ['PAYMENT_PROVIDER', { PAYMENT_PROVIDER: 'paypal' }],
    ['CARD_SANDBOX_URL', { CARD_SANDBOX_URL: 'sandbox.example.com' }],
    ['CARD_SANDBOX_SECRET_KEY', { CARD_SANDBOX_SECRET_KEY: 'pk_sandbox_0123456789abcdef' }],
    ['CARD_SANDBOX_PUBLISHABLE_KEY', { CARD_SANDBOX_PUBLISHABLE_KEY: 'pk_sandbox_short' }],
    ['CARD_SANDBOX_SECRET_KEY', { CARD_SANDBOX_URL: 'https://sandbox.example.com' }],
    ['STRIPE_SECRET_KEY', { PAYMENT_PROVIDER: 'stripe', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }],
    ['STRIPE_PUBLISHABLE_KEY', { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }],
    ['STRIPE_API_HOST', { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS, STRIPE_API_HOST: 'x' }],
    ['STRIPE_WEBHOOK_SECRET', { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS, STRIPE_WEBHOOK_SECRET: '' }],
    [
      'STRIPE_WEBHOOK_SECRET',
      { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS, STRIPE_WEBHOOK_SECRET: 'secret' },
    ],
    ['STRIPE_SECRET_KEY', { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS, STRIPE_SECRET_KEY: 'pk_test_1' }],
    [
      'STRIPE_PUBLISHABLE_KEY',
      { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS, STRIPE_PUBLISHABLE_KEY: 'pk_live_1' },
    ],
  ])('refuses a bad %s with one line naming it', (variable, env) => {
    const load = () => loadConfig(env);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('starts in production once AUTH_SECRET and SMTP_URL are set, and never mounts the dev mailbox there', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://mail.example.com:587', DEV_MAILBOX: 'true' });
    expect(config.nodeEnv).toBe('production');
    expect(config.authSecret).toBe(SECRET);
    expect(config.devMailbox).toBe(false);
  });

  it('refuses to start in production without SMTP_URL, where mail would only reach the dev outbox', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET })).toThrow(
      'Invalid configuration: SMTP_URL is required when NODE_ENV=production',
    );
  });

  it('mounts the dev mailbox only on a loopback host unless DEV_MAILBOX says otherwise', () => {
    expect(loadConfig({}).devMailbox).toBe(true);
    expect(loadConfig({ HOST: '::1' }).devMailbox).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0' }).devMailbox).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', DEV_MAILBOX: 'true' }).devMailbox).toBe(true);
    expect(loadConfig({ DEV_MAILBOX: 'false' }).devMailbox).toBe(false);
  });

  it('defaults to the embedded database, port 3000 on loopback and its own origin', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://localhost:3000', databaseUrl: undefined });
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it("signs in with Google only when both client values are set, through Google's issuer unless GOOGLE_ISSUER names another", () => {
    expect(loadConfig({}).google).toBeUndefined();
    expect(loadConfig({ GOOGLE_ISSUER: 'https://id.example.com' }).google).toBeUndefined();
    const client = { GOOGLE_CLIENT_ID: 'client', GOOGLE_CLIENT_SECRET: 'secret' };
    expect(loadConfig(client).google).toEqual({
      clientId: 'client',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
      discoveryUrl: 'https://accounts.google.com/.well-known/openid-configuration',
    });
    expect(loadConfig({ ...client, GOOGLE_ISSUER: 'https://id.example.com/tenant/' }).google).toMatchObject({
      issuer: 'https://id.example.com/tenant',
      discoveryUrl: 'https://id.example.com/tenant/.well-known/openid-configuration',
    });
    // Plain http only for a provider on this machine (the tests' stand-in).
    for (const issuer of ['http://127.0.0.1:4444', 'http://localhost:4444']) {
      expect(loadConfig({ ...client, GOOGLE_ISSUER: issuer }).google?.issuer).toBe(issuer);
    }
  });

  it('trusts no proxy unless told which', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.0.1' }).trustProxy).toBe('10.0.0.0/8, 192.168.0.1');
  });

  it("prints the seller's address on invoices line by line, none when unset", () => {
    expect(loadConfig({}).sellerAddressLines).toEqual([]);
    expect(loadConfig({ SELLER_ADDRESS: ' 1 Harbour Front | 098632 Singapore |' }).sellerAddressLines).toEqual([
      '1 Harbour Front',
      '098632 Singapore',
    ]);
  });

  it('serves the regions under the portal unless their addresses are configured', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com/' }).regionUrls).toEqual({
      SG: 'https://portal.example.com/regions/sg',
      EU: 'https://portal.example.com/regions/eu',
      US: 'https://portal.example.com/regions/us',
    });
    expect(loadConfig({ REGION_US_URL: 'https://us.example.com/' }).regionUrls.US).toBe('https://us.example.com');
  });
});

describe('the payment gateway', () => {
  it('is the sandbox the portal hosts at /card-sandbox unless told otherwise', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com' }).payments).toEqual({
      provider: 'sandbox',
      cardSandbox: {
        baseUrl: 'https://portal.example.com/card-sandbox',
        embedded: true,
        tokenizeUrl: '/card-sandbox/v1/tokens',
        secretKey: undefined,
        publishableKey: undefined,
      },
    });
  });

  it('is a sandbox elsewhere with its keys when CARD_SANDBOX_URL is set', () => {
    const keys = {
      CARD_SANDBOX_SECRET_KEY: 'sk_sandbox_0123456789abcdef',
      CARD_SANDBOX_PUBLISHABLE_KEY: 'pk_sandbox_0123456789abcdef',
    };
    expect(loadConfig({ CARD_SANDBOX_URL: 'https://pay.example.com/sandbox/', ...keys }).payments).toEqual({
      provider: 'sandbox',
      cardSandbox: {
        baseUrl: 'https://pay.example.com/sandbox',
        embedded: false,
        tokenizeUrl: 'https://pay.example.com/sandbox/v1/tokens',
        secretKey: keys.CARD_SANDBOX_SECRET_KEY,
        publishableKey: keys.CARD_SANDBOX_PUBLISHABLE_KEY,
      },
    });
  });

  it('is Stripe with its keys and webhook secret', () => {
    const env = { PAYMENT_PROVIDER: 'stripe', ...STRIPE_KEYS };
    expect(loadConfig(env).payments).toEqual({
      provider: 'stripe',
      stripe: { secretKey: 'sk_test_1', publishableKey: 'pk_test_1', webhookSecret: 'whsec_1', apiHost: undefined },
    });
    expect(loadConfig({ ...env, STRIPE_API_HOST: 'http://127.0.0.1:12111' }).payments).toMatchObject({
      stripe: { apiHost: 'http://127.0.0.1:12111' },
    });
  });
});

describe('resolveDataDirSecret', () => {
  it('generates a value once into the data directory and reads it back, unless one is configured', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-secret-'));
    try {
      const first = resolveDataDirSecret(undefined, dir, 'region-admin-token');
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveDataDirSecret(undefined, dir, 'region-admin-token')).toBe(first);
      expect(fs.readFileSync(path.join(dir, 'region-admin-token'), 'utf8')).toBe(first);
      expect(resolveDataDirSecret('configured-token-value', dir, 'region-admin-token')).toBe('configured-token-value');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
