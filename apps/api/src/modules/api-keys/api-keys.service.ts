import crypto from 'node:crypto';
import {
  API_KEY_OVERLAP_MS,
  type ApiKey,
  type ApplicationState,
  type CreatedApiKey,
  type ErrorCode,
  type ListApiKeysResponse,
  type RegionKey,
  type RotateApiKeyRequest,
  type RotateApiKeyResponse,
} from '@portal/contracts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { RegionRequestError, type RegionClient } from '../../regions/region-client.ts';
import { memberAuditContext, type AuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { record, type AuditEntry } from '../audit-log/audit-log.record.ts';
import { assertAccountActive, findApplicationFor, inRegion } from '../applications/applications.service.ts';

export interface ApiKeysDeps {
  db: Db;
  regions: RegionClient;
  /** Told when the undoing of a key the region made fails too, since that key then stays working unseen. */
  logError(error: unknown, message: string): void;
}

/** The region's refusals a member can act on, as the portal's errors. */
const REGION_REFUSALS: Partial<Record<string, ErrorCode>> = {
  API_KEY_LIMIT: 'API_KEY_LIMIT_REACHED',
  API_KEY_NOT_FOUND: 'API_KEY_NOT_FOUND',
};

/** A regional key call: 503 when the region does not answer, the portal's error for a refusal it names. */
async function inRegionKeys<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await inRegion(call);
  } catch (error) {
    const refusal =
      error instanceof RegionRequestError && error.code ? REGION_REFUSALS[error.code] : undefined;
    if (refusal) throw new AppError(refusal);
    throw error;
  }
}

/** The portal names each key, so its audit entry and the region agree on it (decision 043). */
function newKeyId(): string {
  return `key_${crypto.randomBytes(12).toString('base64url')}`;
}

/** A key as the log names it: its name and prefix, never the key. */
function keyTarget(key: ApiKey): AuditEntry['target'] {
  return { type: 'api_key', id: key.id, name: `${key.name} (${key.prefix})` };
}

/** An application the member may act on, with the network its keys live in. */
interface KeyedApplication {
  membership: Membership;
  region: RegionKey;
  networkId: string | null;
  state: ApplicationState;
}

/** An application whose network takes new keys. */
type WorkingApplication = KeyedApplication & { networkId: string };

export function apiKeysService(deps: ApiKeysDeps) {
  const { db, regions } = deps;

  async function application(
    user: SessionUser,
    permission: 'VIEW_APPLICATION' | 'EDIT_APPLICATION',
    applicationId: string,
  ): Promise<KeyedApplication> {
    const { caller, row } = await findApplicationFor(db, user, permission, applicationId);
    return { membership: caller.membership, region: row.region, networkId: row.networkId, state: row.state };
  }

  /** Creating and rotating make a key: an active application on an active account only. */
  async function workingApplication(user: SessionUser, applicationId: string): Promise<WorkingApplication> {
    const found = await application(user, 'EDIT_APPLICATION', applicationId);
    assertAccountActive(found.membership);
    const { networkId } = found;
    if (found.state !== 'active' || !networkId) throw new AppError('APPLICATION_NOT_ACTIVE');
    return { ...found, networkId };
  }

  /** Records the change the region made, in a transaction of its own (decision 043, "Recorded after the region's answer"). */
  async function recordChange(
    { membership }: KeyedApplication,
    context: AuditContext,
    change: Pick<AuditEntry, 'action' | 'target' | 'changes'>,
  ) {
    await db.transaction((tx) =>
      record(tx, { organizationId: membership.organization.id, ...change, context }),
    );
  }

  /**
   * Runs the step that follows the region making `created`. When it fails, no one has seen the key,
   * so it is revoked and the step's error stands; if the region does not answer that revoke either,
   * the key stays in the list, where a member may revoke it.
   */
  async function revokingOnFailure<T>(
    found: WorkingApplication,
    created: ApiKey,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      await regions.revokeApiKey(found.region, found.networkId, created.id).catch((undoError: unknown) => {
        deps.logError(undoError, `could not revoke the unrecorded API key ${created.id}`);
      });
      throw error;
    }
  }

  return {
    async list(user: SessionUser, applicationId: string): Promise<ListApiKeysResponse> {
      const { region, networkId } = await application(user, 'VIEW_APPLICATION', applicationId);
      // An application still being provisioned has no network yet, so no key.
      if (!networkId) return { results: [] };
      return inRegionKeys(() => regions.listApiKeys(region, networkId));
    },

    async create(
      user: SessionUser,
      origin: RequestOrigin,
      applicationId: string,
      name: string,
    ): Promise<CreatedApiKey> {
      const found = await workingApplication(user, applicationId);
      const context = memberAuditContext(origin, user, found.membership);
      const created = await inRegionKeys(() =>
        regions.createApiKey(found.region, found.networkId, { keyId: newKeyId(), name }),
      );
      await revokingOnFailure(found, created, () =>
        recordChange(found, context, {
          action: 'api_key.created',
          target: keyTarget(created),
          changes: { name: { after: created.name }, prefix: { after: created.prefix } },
        }),
      );
      return created;
    },

    /**
     * Makes the key's successor and sets the key to stop after the overlap. With the overlap `now`
     * the key is stopped first, so its place is free for the successor even when the application
     * has its maximum of working keys; a longer overlap keeps both working, so needs a free place.
     * A key already stopped may be rotated too: that makes its replacement, and is how a rotation
     * whose entry could not be recorded is tried again.
     */
    async rotate(
      user: SessionUser,
      origin: RequestOrigin,
      applicationId: string,
      keyId: string,
      request: RotateApiKeyRequest,
    ): Promise<RotateApiKeyResponse> {
      const found = await workingApplication(user, applicationId);
      const { region, networkId } = found;
      const context = memberAuditContext(origin, user, found.membership);
      const { results } = await inRegionKeys(() => regions.listApiKeys(region, networkId));
      const old = results.find((key) => key.id === keyId);
      if (!old) throw new AppError('API_KEY_NOT_FOUND');
      const stopsAt = new Date(Date.now() + API_KEY_OVERLAP_MS[request.overlap]);
      const successor = { keyId: newKeyId(), name: request.name ?? old.name };
      const stop = () => inRegionKeys(() => regions.expireApiKey(region, networkId, keyId, stopsAt));
      const make = () => inRegionKeys(() => regions.createApiKey(region, networkId, successor));

      let rotated: ApiKey;
      let created: CreatedApiKey;
      if (request.overlap === 'now') {
        rotated = await stop();
        created = await make();
      } else {
        created = await make();
        rotated = await revokingOnFailure(found, created, stop);
      }
      await revokingOnFailure(found, created, () =>
        recordChange(found, context, {
          action: 'api_key.rotated',
          target: keyTarget(old),
          changes: {
            successorId: { after: created.id },
            successorName: { after: created.name },
            successorPrefix: { after: created.prefix },
            overlap: { after: request.overlap },
            expiresAt: { before: old.expiresAt, after: rotated.expiresAt },
          },
        }),
      );
      return { created, rotated };
    },

    /** Stops the key at once, whatever the application's or the account's state: a leaked key must always be stoppable. */
    async revoke(
      user: SessionUser,
      origin: RequestOrigin,
      applicationId: string,
      keyId: string,
    ): Promise<ApiKey> {
      const found = await application(user, 'EDIT_APPLICATION', applicationId);
      const { region, networkId } = found;
      if (!networkId) throw new AppError('API_KEY_NOT_FOUND');
      const revoked = await inRegionKeys(() => regions.revokeApiKey(region, networkId, keyId));
      // A failure here leaves the key revoked (the safe side) and answers the error: a revoke
      // keeps its first time, so the member's retry records it.
      await recordChange(found, memberAuditContext(origin, user, found.membership), {
        action: 'api_key.revoked',
        target: keyTarget(revoked),
        changes: { revokedAt: { after: revoked.revokedAt } },
      });
      return revoked;
    },
  };
}
