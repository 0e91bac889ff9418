import { describe, expect, it } from 'vitest';
import { codeSamples } from './code-samples';
import { API_KEY_PLACEHOLDER, LOADING_API_KEY, sampleApiKey, wizardApiKey } from './wizard-api-key';

describe("the setup wizard's key", () => {
  it('is the first key while it works, and the samples carry it', () => {
    const key = wizardApiKey({ apiKey: 'rk_abcd1234-whole-key' });
    expect(key).toEqual({ kind: 'key', apiKey: 'rk_abcd1234-whole-key' });
    expect(sampleApiKey(key, 'Loading...')).toBe('rk_abcd1234-whole-key');
  });

  it('once the first key stopped, names the prefix of a working key and puts a placeholder in the samples', () => {
    const key = wizardApiKey({ apiKey: null, prefix: 'rk_abcd1234' });
    expect(key).toEqual({ kind: 'stopped', prefix: 'rk_abcd1234' });
    expect(sampleApiKey(key, 'Loading...')).toBe(API_KEY_PLACEHOLDER);
    const init = codeSamples('react', 'sdk', { apiKey: sampleApiKey(key, 'Loading...'), region: 'EU' })[1]
      ?.code;
    expect(init).toContain("apiKey: 'YOUR_API_KEY'");
  });

  it('is stopped without a prefix when no key works, never loading', () => {
    expect(wizardApiKey({ apiKey: null, prefix: null })).toEqual({ kind: 'stopped', prefix: null });
    expect(wizardApiKey({ apiKey: null })).toEqual({ kind: 'stopped', prefix: null });
  });

  it('shows the loading text until the region answers', () => {
    expect(sampleApiKey(LOADING_API_KEY, 'Loading...')).toBe('Loading...');
  });
});
