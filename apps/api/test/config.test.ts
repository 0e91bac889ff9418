import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const SECRET = 'a-production-secret-of-at-least-32-chars';

describe('loadConfig', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['AUTH_SECRET', { NODE_ENV: 'production' }],
    ['AUTH_SECRET', { AUTH_SECRET: 'short' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['RATE_LIMIT_MAX_PER_IP', { RATE_LIMIT_MAX_PER_IP: '0' }],
    ['GOOGLE_CLIENT_SECRET', { GOOGLE_CLIENT_ID: 'id' }],
  ])('refuses a bad %s with one line naming it', (variable, env) => {
    const load = () => loadConfig(env);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('starts in production once AUTH_SECRET is set', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET });
    expect(config.nodeEnv).toBe('production');
    expect(config.authSecret).toBe(SECRET);
  });

  it('defaults to the embedded database, port 3000 on loopback and its own origin', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://localhost:3000', databaseUrl: undefined });
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('trusts X-Forwarded-For only from loopback unless told otherwise', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.0.1' }).trustProxy).toBe('10.0.0.0/8, 192.168.0.1');
  });
});
