import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { Application, CreateApplicationRequest, ListApplicationsResponse } from '@portal/contracts';

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

  async deactivate(app: Pick<Application, 'applicationId' | 'name'>) {
    const response = await this.request.post(`/api/v1/applications/${app.applicationId}/deactivate`, {
      data: { confirmName: app.name },
      headers: { origin: this.origin },
    });
    if (!response.ok())
      throw new Error(`deactivating ${app.name} answered ${response.status()}: ${await response.text()}`);
  }
}
