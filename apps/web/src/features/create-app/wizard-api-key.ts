import type { ApiKeyResponse } from '@portal/contracts';

/** What the code samples carry once the first key has stopped: the developer puts in a key they saved. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/**
 * The wizard's key (decision 043): not read yet, the application's first key while it works, or
 * the prefix of the newest working key once the first one was rotated or revoked (null when no
 * key works).
 */
export type WizardApiKey =
  { kind: 'loading' } | { kind: 'key'; apiKey: string } | { kind: 'stopped'; prefix: string | null };

export const LOADING_API_KEY: WizardApiKey = { kind: 'loading' };

export function wizardApiKey(answer: ApiKeyResponse): WizardApiKey {
  if (answer.apiKey !== null) return { kind: 'key', apiKey: answer.apiKey };
  return { kind: 'stopped', prefix: answer.prefix ?? null };
}

/** The key written into the code samples and the sample client's command. */
export function sampleApiKey(key: WizardApiKey, loadingText: string): string {
  if (key.kind === 'key') return key.apiKey;
  return key.kind === 'stopped' ? API_KEY_PLACEHOLDER : loadingText;
}
