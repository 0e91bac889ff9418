import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type {
  ApiKeyResponse,
  Application,
  CreateApplicationRequest,
  ListApplicationsResponse,
} from '@portal/contracts';
import { REPO_ROOT } from '../harness/harness-state.ts';

const run = promisify(execFile);

/** Where the portal hosts an application's region for the browser: /regions/eu. */
export function regionPath(app: Pick<Application, 'region'>): string {
  return `/regions/${app.region.toLowerCase()}`;
}

/**
 * The sample SDK client (`npm run sdk -- ping`) opens a session as `user` with an app's API key,
 * which makes the user active in the app's network this month; answers what the client printed.
 * `env` names a region at its own address (REGION_EU_URL…), as the wizard's command does.
 */
export async function sdkPing(
  baseURL: string,
  region: string,
  apiKey: string,
  user: string,
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await runSdkPing(baseURL, region, apiKey, user, env);
  expect(stdout).toContain(`as ${user}: session`);
  return stdout;
}

/** The sample SDK client's ping when the region refuses the session: answers why, as the client printed it. */
export async function sdkPingRefused(
  baseURL: string,
  region: string,
  apiKey: string,
  user: string,
): Promise<string> {
  return runSdkPing(baseURL, region, apiKey, user).then(
    ({ stdout }) => {
      throw new Error(`the region opened an SDK session as ${user}: ${stdout}`);
    },
    (error: unknown) => (error as { stderr?: string }).stderr?.trim() ?? String(error),
  );
}

function runSdkPing(
  baseURL: string,
  region: string,
  apiKey: string,
  user: string,
  env: Record<string, string> = {},
) {
  return run(
    'npm',
    [
      'run',
      'sdk',
      '--',
      'ping',
      '--region',
      region,
      '--api-key',
      apiKey,
      '--user',
      user,
      '--base-url',
      baseURL,
    ],
    { cwd: REPO_ROOT, timeout: 60_000, env: { ...process.env, ...env } },
  );
}

/**
 * Prepares applications through the portal's /api/v1/applications, with the session of the
 * request context it is given (a page's, so the page sees the same organisation).
 */
export class Applications {
  constructor(
    private readonly request: APIRequestContext,
    private readonly origin: string,
  ) {}

  /** The raw POST, for tests that look at refusals. */
  post(data: unknown): Promise<APIResponse> {
    return this.request.post('/api/v1/applications', { data, headers: { origin: this.origin } });
  }

  async create(fields: CreateApplicationRequest): Promise<Application> {
    const response = await this.post(fields);
    if (response.status() !== 201)
      throw new Error(`creating ${fields.name} answered ${response.status()}: ${await response.text()}`);
    // The POST answers a list whose first item is the new app.
    const [created] = (await response.json()) as Application[];
    if (!created) throw new Error(`creating ${fields.name} answered an empty list`);
    return created;
  }

  async list(limit = 100): Promise<ListApplicationsResponse> {
    const response = await this.request.get(`/api/v1/applications?limit=${limit}`);
    expect(response.status()).toBe(200);
    return response.json();
  }

  async get(applicationId: string): Promise<Application> {
    const response = await this.request.get(`/api/v1/applications/${applicationId}`);
    expect(response.status()).toBe(200);
    return response.json();
  }

  /** Provisioning in the regional emulator takes a few seconds; polls until every app is active. */
  async waitUntilAllActive(expectedCount: number) {
    await expect
      .poll(
        async () => {
          const { data } = await this.list();
          return data.length === expectedCount && data.every((app) => app.state === 'active');
        },
        { timeout: 45_000, intervals: [250, 500, 1_000] },
      )
      .toBe(true);
  }

  /**
   * Opens a regional session for the app with the portal's access token, as Go to console does (the
   * session cookie lands in the request context), and answers the app's API key from the region.
   */
  async regionalApiKey(app: Pick<Application, 'applicationId' | 'networkId' | 'region'>): Promise<string> {
    const tokenResponse = await this.request.get('/api/auth/token');
    expect(tokenResponse.status()).toBe(200);
    const { token } = (await tokenResponse.json()) as { token: string };
    expect(token).toBeTruthy();

    const sso = await this.request.post(
      `${regionPath(app)}/api/v2/sso/portal?applicationId=${app.applicationId}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(sso.status()).toBe(200);
    expect(await sso.json()).toMatchObject({ ok: true, networkId: app.networkId });

    const keyResponse = await this.request.get(`${regionPath(app)}/admin/v1/network/apikey`);
    expect(keyResponse.status()).toBe(200);
    const { apiKey } = (await keyResponse.json()) as ApiKeyResponse;
    // The wizard's key is the application's first key, readable while it works (decision 043).
    if (!apiKey) throw new Error(`the first API key of ${app.applicationId} has stopped`);
    return apiKey;
  }

  async deactivate(app: Pick<Application, 'applicationId' | 'name'>) {
    const response = await this.request.post(`/api/v1/applications/${app.applicationId}/deactivate`, {
      data: { confirmName: app.name },
      headers: { origin: this.origin },
    });
    if (!response.ok())
      throw new Error(`deactivating ${app.name} answered ${response.status()}: ${await response.text()}`);
  }
}
