import { MAX_WORKING_API_KEYS, type ApiKey, type ApiKeyStatus } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMessages, t } from '../../lib/i18n';
import { enSignedIn } from '../../locales/en-signed-in';
import {
  apiKeyStatusText,
  canCreateApiKey,
  defaultKeyName,
  shownPrefix,
  workingKeyCount,
} from './api-key-rules';

beforeAll(() => addMessages(enSignedIn));

/** In the local time zone, as the browser shows it: 09 Mar 2026 14:30. */
const stopsAt = new Date(2026, 2, 9, 14, 30).toISOString();

function key(status: ApiKeyStatus, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: `key-${status}`,
    name: `Key ${status}`,
    prefix: 'rk_abcd1234',
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: status === 'active' ? null : stopsAt,
    revokedAt: status === 'revoked' ? stopsAt : null,
    lastUsedAt: null,
    status,
    ...overrides,
  };
}

const shown = (apiKey: ApiKey) => {
  const text = apiKeyStatusText(apiKey);
  return t(text.key, text.values);
};

describe('the status a key shows', () => {
  it('is Active for a key without a stop', () => {
    expect(shown(key('active'))).toBe('Active');
  });

  it('names when a key in a rotation overlap stops, in the local time zone', () => {
    expect(shown(key('expiring'))).toBe('Stops 09 Mar 2026 14:30');
  });

  it('is Stopped past the overlap and Revoked once revoked', () => {
    expect(shown(key('expired'))).toBe('Stopped');
    expect(shown(key('revoked'))).toBe('Revoked');
  });
});

describe('creating a key', () => {
  const working = (count: number) =>
    Array.from({ length: count }, (_, i) => key(i % 2 ? 'active' : 'expiring'));

  it(`is possible below ${MAX_WORKING_API_KEYS} working keys, counting keys in an overlap`, () => {
    expect(workingKeyCount(working(4))).toBe(4);
    expect(canCreateApiKey(working(4))).toBe(true);
    expect(canCreateApiKey([])).toBe(true);
  });

  it(`is not at ${MAX_WORKING_API_KEYS} working keys`, () => {
    expect(canCreateApiKey(working(MAX_WORKING_API_KEYS))).toBe(false);
  });

  it('does not count stopped and revoked keys', () => {
    const keys = [...working(4), key('expired'), key('revoked'), key('expired')];
    expect(workingKeyCount(keys)).toBe(4);
    expect(canCreateApiKey(keys)).toBe(true);
  });

  it('offers "Key <n>" after the keys there are, skipping a name already taken', () => {
    expect(defaultKeyName([])).toBe('Key 1');
    expect(defaultKeyName([key('active', { name: 'Default key' })])).toBe('Key 2');
    expect(defaultKeyName([key('active', { name: 'Key 2' }), key('revoked', { name: 'Key 3' })])).toBe(
      'Key 4',
    );
  });
});

it('marks a prefix as the start of a longer key', () => {
  expect(shownPrefix('rk_abcd1234')).toBe('rk_abcd1234…');
});
