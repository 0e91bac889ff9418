import {
  COUNTED_APPLICATION_STATES,
  CORE_PLAN_LABEL_FROM,
  isScopableRole,
  type Application,
  type CreateApplicationRequest,
  type Permission,
  type PlanKey,
} from '@portal/contracts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { RegionUnavailableError, type RegionClient } from '../../regions/region-client.ts';
import { memberAuditContext, type AuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { record } from '../audit-log/audit-log.record.ts';
import { addToMemberScope } from '../members/members.repository.ts';
import { requireMembership } from '../members/members.service.ts';
import {
  findApplication,
  findMemberScope,
  insertApplication,
  listApplications,
  lockOrganizationAndCount,
  updateApplicationInState,
  type ApplicationRow,
} from './applications.repository.ts';

const PLAN_DISPLAY_NAMES: Record<PlanKey, string> = { basic: 'Basic', advance: 'Advance', max: 'Max' };
const CORE_PLAN_FROM_MS = Date.parse(`${CORE_PLAN_LABEL_FROM}T00:00:00Z`);

export interface ApplicationsDeps {
  db: Db;
  regions: RegionClient;
  productName: string;
  /** Never fails the request: the application is stored before it is enqueued. */
  enqueueProvisioning(applicationId: string): Promise<void>;
}

/** Who is calling and what they may see: organisation, role and application scope. */
interface Caller {
  membership: Membership;
  scope: string[] | undefined;
}

function applicationTarget(row: Pick<ApplicationRow, 'id' | 'name'>) {
  return { type: 'application' as const, id: row.id, name: row.name };
}

async function callerWith(db: Db, user: SessionUser, permission: Permission): Promise<Caller> {
  const membership = await requireMembership(db, user);
  assertPermission(membership.member.roleId, permission);
  const { member } = membership;
  const limited = isScopableRole(member.roleId) && !member.allApplications;
  return { membership, scope: limited ? await findMemberScope(db, member.id) : undefined };
}

export function planName(
  row: Pick<ApplicationRow, 'plan' | 'createdAt'>,
  contractType: string,
  productName: string,
) {
  return contractType === 'payg' && row.createdAt.getTime() >= CORE_PLAN_FROM_MS
    ? `${productName} Core`
    : PLAN_DISPLAY_NAMES[row.plan];
}

function toApplication(row: ApplicationRow, contractType: string, productName: string): Application {
  return {
    applicationId: row.id,
    name: row.name,
    plan: row.plan,
    planName: planName(row, contractType, productName),
    region: row.region,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    consoleUrl: row.consoleUrl,
    description: row.description,
    networkId: row.networkId,
  };
}

async function visibleApplication(db: Db, caller: Caller, applicationId: string) {
  const row = await findApplication(db, caller.membership.organization.id, caller.scope, applicationId);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The application as the member may act on it: 403 without `permission`, 404 outside their organisation or scope. */
export async function findApplicationFor(
  db: Db,
  user: SessionUser,
  permission: Permission,
  applicationId: string,
) {
  const caller = await callerWith(db, user, permission);
  return { caller, row: await visibleApplication(db, caller, applicationId) };
}

/** The application as the member may see it; 403 without VIEW_APPLICATION, 404 outside their organisation or scope. */
export function findViewableApplication(db: Db, user: SessionUser, applicationId: string) {
  return findApplicationFor(db, user, 'VIEW_APPLICATION', applicationId);
}

/** Runs a regional call; an unreachable region becomes a 503 the user can retry, with nothing changed. */
export async function inRegion<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RegionUnavailableError) throw new AppError('REGION_UNAVAILABLE');
    throw error;
  }
}

export function assertAccountActive(membership: Membership) {
  if (membership.organization.accountStatus !== 'active') throw new AppError('ACCOUNT_INACTIVE');
}

/** An application's move between active and deactivated, in the transaction that made it. */
function recordStateChange(
  tx: Tx,
  organizationId: string,
  action: 'application.deactivated' | 'application.reactivated',
  before: ApplicationRow,
  state: ApplicationRow['state'],
  { context, reason }: { context: AuditContext; reason?: string },
) {
  return record(tx, {
    organizationId,
    action,
    target: applicationTarget(before),
    changes: {
      state: { before: before.state, after: state },
      ...(reason === undefined ? {} : { reason: { after: reason } }),
    },
    context,
  });
}

export function applicationsService(deps: ApplicationsDeps) {
  const { db, regions, productName } = deps;
  const present = (row: ApplicationRow, caller: Caller) =>
    toApplication(row, caller.membership.organization.contractType, productName);

  return {
    async list(user: SessionUser, limit: number) {
      const caller = await callerWith(db, user, 'VIEW_APPLICATION');
      const { rows, total } = await listApplications(
        db,
        caller.membership.organization.id,
        caller.scope,
        limit,
      );
      return { data: rows.map((row) => present(row, caller)), total };
    },

    async get(user: SessionUser, applicationId: string) {
      const { caller, row } = await findViewableApplication(db, user, applicationId);
      return present(row, caller);
    },

    async create(user: SessionUser, origin: RequestOrigin, request: CreateApplicationRequest) {
      const caller = await callerWith(db, user, 'CREATE_APPLICATION');
      const { organization } = caller.membership;
      const context = memberAuditContext(origin, user, caller.membership);
      assertAccountActive(caller.membership);
      const row = await db.transaction(async (tx) => {
        const counted = await lockOrganizationAndCount(tx, organization.id, COUNTED_APPLICATION_STATES);
        if (counted >= organization.applicationLimit) throw new AppError('APPLICATION_LIMIT_REACHED');
        const inserted = await insertApplication(tx, organization.id, {
          id: crypto.randomUUID(),
          ...request,
        });
        // A member limited to some applications keeps sight of the one they create (decision 010).
        const { member } = caller.membership;
        if (caller.scope) await addToMemberScope(tx, organization.id, member.id, [inserted.id]);
        await record(tx, {
          organizationId: organization.id,
          action: 'application.created',
          target: applicationTarget(inserted),
          changes: {
            name: { after: inserted.name },
            plan: { after: inserted.plan },
            region: { after: inserted.region },
          },
          context,
        });
        return inserted;
      });
      await deps.enqueueProvisioning(row.id);
      return present(row, caller);
    },

    async update(user: SessionUser, origin: RequestOrigin, applicationId: string, name: string) {
      const caller = await callerWith(db, user, 'EDIT_APPLICATION');
      const { organization } = caller.membership;
      const row = await visibleApplication(db, caller, applicationId);
      if (row.state !== 'active' || !row.networkId) throw new AppError('APPLICATION_NOT_ACTIVE');
      const { networkId } = row;
      // The region is renamed first: if it is down the user sees 503 and both sides keep the old name.
      await inRegion(() => regions.updateNetwork(row.region, networkId, name));
      const updated = await db.transaction(async (tx) => {
        const renamed = await updateApplicationInState(tx, organization.id, row.id, 'active', { name });
        if (!renamed) throw new AppError('APPLICATION_NOT_ACTIVE');
        await record(tx, {
          organizationId: organization.id,
          action: 'application.renamed',
          target: applicationTarget(renamed),
          changes: { name: { before: row.name, after: renamed.name } },
          context: memberAuditContext(origin, user, caller.membership),
        });
        return renamed;
      });
      return present(updated, caller);
    },

    async deactivate(user: SessionUser, origin: RequestOrigin, applicationId: string, confirmName: string) {
      const caller = await callerWith(db, user, 'EDIT_APPLICATION');
      const { organization } = caller.membership;
      const row = await visibleApplication(db, caller, applicationId);
      if (row.state !== 'active' || !row.networkId) throw new AppError('APPLICATION_NOT_ACTIVE');
      if (confirmName !== row.name) throw new AppError('CONFIRM_NAME_MISMATCH', { field: 'confirmName' });
      const { networkId } = row;
      await inRegion(() => regions.deactivateNetwork(row.region, networkId));
      const updated = await db.transaction(async (tx) => {
        const deactivated = await updateApplicationInState(tx, organization.id, row.id, 'active', {
          state: 'deactivated',
          deactivatedAt: new Date(),
        });
        if (!deactivated) throw new AppError('APPLICATION_NOT_ACTIVE');
        await recordStateChange(tx, organization.id, 'application.deactivated', row, deactivated.state, {
          context: memberAuditContext(origin, user, caller.membership),
        });
        return deactivated;
      });
      return present(updated, caller);
    },

    async reactivate(user: SessionUser, origin: RequestOrigin, applicationId: string) {
      const caller = await callerWith(db, user, 'EDIT_APPLICATION');
      const { organization } = caller.membership;
      const context = memberAuditContext(origin, user, caller.membership);
      assertAccountActive(caller.membership);
      const row = await visibleApplication(db, caller, applicationId);
      if (row.state !== 'deactivated' || !row.networkId) throw new AppError('APPLICATION_NOT_DEACTIVATED');
      const { networkId } = row;
      // Counted and moved to active under the organisation lock, so two reactivations cannot both
      // pass the limit; the region is called after the transaction (a database transaction must not
      // wait on the network) and the state is put back when the region cannot be reached.
      const updated = await db.transaction(async (tx) => {
        const counted = await lockOrganizationAndCount(tx, organization.id, COUNTED_APPLICATION_STATES);
        if (counted >= organization.applicationLimit) throw new AppError('APPLICATION_LIMIT_REACHED');
        const reactivated = await updateApplicationInState(tx, organization.id, row.id, 'deactivated', {
          state: 'active',
          deactivatedAt: null,
        });
        if (reactivated) await recordStateChange(tx, organization.id, 'application.reactivated', row, 'active', { context });
        return reactivated;
      });
      if (!updated) throw new AppError('APPLICATION_NOT_DEACTIVATED');
      try {
        await inRegion(() => regions.reactivateNetwork(row.region, networkId));
      } catch (error) {
        // The log keeps the reactivation it recorded and says why it was undone: entries are never removed.
        await db.transaction(async (tx) => {
          const putBack = await updateApplicationInState(tx, organization.id, row.id, 'active', {
            state: 'deactivated',
            deactivatedAt: row.deactivatedAt,
          });
          if (putBack)
            await recordStateChange(tx, organization.id, 'application.deactivated', updated, 'deactivated', {
              context,
              reason: 'region_unavailable',
            });
        });
        throw error;
      }
      return present(updated, caller);
    },
  };
}
