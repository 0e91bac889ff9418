import type { Application, CreateApplicationRequest } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { PortalError } from '../../../lib/api-error';
import { getApplication } from '../../../api/applications/get-application';
import { openRegionalSession } from '../../../lib/regions/regional-session';

/** The create call's list (§7), whose first item is the new application. */
type CreatedList = [Application, ...Application[]];

const POLL_INTERVAL_MS = 1_000;
export const ACTIVATION_TIMEOUT_MS = 60_000;

/** The app was created but its region did not finish provisioning it in time. */
export class ActivationTimeoutError extends PortalError {
  constructor() {
    super('createApp.error.activationTimeout');
    this.name = 'ActivationTimeoutError';
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * §4 create flow: create the app, wait until its region has provisioned it, then open the
 * regional session the next steps need (API key, first activity) with a fresh portal token.
 */
export async function createAndConnectApplication(request: CreateApplicationRequest) {
  const [created] = await apiRequest<CreatedList>('/api/v1/applications', {
    method: 'POST',
    body: request,
  });
  let application = created;
  const deadline = Date.now() + ACTIVATION_TIMEOUT_MS;
  while (application.state !== 'active') {
    if (Date.now() >= deadline) throw new ActivationTimeoutError();
    await wait(POLL_INTERVAL_MS);
    application = await getApplication(application.applicationId);
  }
  const session = await openRegionalSession(application);
  return { application, session };
}
