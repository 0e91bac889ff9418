// @vitest-environment jsdom
import type { ApiKeyResponse, RegionSsoResponse } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activeApplication, renderSignedInPart } from '../../../components/render-for-test';
import { regionalSessionQueryOptions } from '../../../lib/regions/regional-session';
import { REGION_API_KEY_QUERY_KEY } from '../api/get-api-key';
import { SetupApplicationStep } from './setup-application-step';

configure({ asyncUtilTimeout: 10_000 });

const application = activeApplication();

const session: RegionSsoResponse = {
  ok: true,
  networkId: 'net-1',
  sessionToken: 'regional-session',
  expiresAt: '2030-01-01T00:00:00.000Z',
};

beforeEach(() => {
  // The public configuration is not needed here: its help links are left out without it.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 500 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The step with the regional session open and the region's key answer already read. */
function renderStep(answer: ApiKeyResponse) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(regionalSessionQueryOptions(application).queryKey, session);
  client.setQueryData([...REGION_API_KEY_QUERY_KEY, application.region, application.applicationId], answer);
  return renderSignedInPart(<SetupApplicationStep sub="asc" application={application} />, client);
}

const initializeSample = () =>
  screen.getAllByText((_, element) => element?.getAttribute('data-language') === 'swift')[1]?.textContent ??
  '';

describe('the setup step', { timeout: 30_000 }, () => {
  it('shows the first key and writes it into the samples while it works', async () => {
    renderStep({ apiKey: 'rk_abcd1234-whole-key' });
    expect(await screen.findByText('rk_abcd1234-whole-key')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Copy API key' }).hasAttribute('disabled')).toBe(false);
    expect(initializeSample()).toContain('apiKey: "rk_abcd1234-whole-key"');
  });

  it('once the first key stopped: the prefix of a working key, where to find the keys, and a placeholder in the samples', async () => {
    renderStep({ apiKey: null, prefix: 'rk_efgh5678' });
    expect(await screen.findByText('rk_efgh5678…')).toBeDefined();
    expect(
      screen.getByText(
        "This application's first key was rotated or revoked. Use a key you saved from API keys.",
      ),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Open API keys' }).getAttribute('href')).toBe(
      '/apps/asc?apiKeys=app-1',
    );
    expect(screen.queryByText('Loading...')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy API key' })).toBeNull();
    expect(initializeSample()).toContain('apiKey: "YOUR_API_KEY"');

    fireEvent.click(screen.getByRole('radio', { name: 'React' }));
    expect(screen.getAllByText(/apiKey="YOUR_API_KEY"/).length).toBeGreaterThan(0);
  });

  it('says where to find the keys when none works, without a prefix', async () => {
    renderStep({ apiKey: null, prefix: null });
    expect(
      await screen.findByText(
        "This application's first key was rotated or revoked. Use a key you saved from API keys.",
      ),
    ).toBeDefined();
    expect(screen.queryByText(/^rk_/)).toBeNull();
    expect(screen.queryByText('Loading...')).toBeNull();
  });
});
