import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { ApplicationState, PlanKey, RegionKey } from '@portal/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import {
  listPage,
  newestFirstPage,
  newestFirstQuery,
  preparedOnce,
  type WithListTotal,
} from '../../db/list-page.ts';
import * as schema from '../../db/schema.ts';

export type ApplicationRow = typeof schema.application.$inferSelect;

/** The application ids a member limited to selected applications may see (possibly none). */
export async function findMemberScope(executor: Executor, memberId: string): Promise<string[]> {
  const rows = await executor
    .select({ applicationId: schema.memberApplicationScope.applicationId })
    .from(schema.memberApplicationScope)
    .where(eq(schema.memberApplicationScope.memberId, memberId));
  return rows.map((row) => row.applicationId);
}

function visibleTo(organizationId: string, scope: string[] | undefined) {
  const inOrganization = eq(schema.application.organizationId, organizationId);
  if (!scope) return inOrganization;
  // An empty scope sees nothing (inArray with no values is not valid SQL on every driver).
  return scope.length > 0 ? and(inOrganization, inArray(schema.application.id, scope)) : sql`false`;
}

export async function listApplications(
  executor: Executor,
  organizationId: string,
  scope: string[] | undefined,
  limit: number,
) {
  const where = visibleTo(organizationId, scope);
  if (scope) return newestFirstPage(executor, schema.application, where, limit);
  // Members who see every application, most callers, get a query built once.
  const page = preparedOnce(executor, 'portal_applications_page', (name) =>
    newestFirstQuery(
      executor,
      schema.application,
      eq(schema.application.organizationId, sql.placeholder('organizationId')),
      sql.placeholder('limit'),
    ).prepare(name),
  );
  return listPage<ApplicationRow>(
    executor,
    schema.application,
    where,
    () => page.execute({ organizationId, limit }) as Promise<WithListTotal<ApplicationRow>[]>,
  );
}

export async function findApplication(
  executor: Executor,
  organizationId: string,
  scope: string[] | undefined,
  applicationId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await executor
    .select()
    .from(schema.application)
    .where(and(visibleTo(organizationId, scope), eq(schema.application.id, applicationId)))
    .limit(1);
  return row;
}

/** The application whatever its organisation: for the provisioning job, which is given an application id. */
export async function findApplicationById(
  executor: Executor,
  applicationId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await executor
    .select()
    .from(schema.application)
    .where(eq(schema.application.id, applicationId))
    .limit(1);
  return row;
}

/**
 * Locks the organisation row for the rest of the transaction, so concurrent creations and
 * reactivations are counted one after the other and cannot together pass the limit.
 */
export async function lockOrganizationAndCount(
  tx: Tx,
  organizationId: string,
  states: readonly ApplicationState[],
) {
  await tx.execute(
    sql`SELECT id FROM ${schema.organization} WHERE ${schema.organization.id} = ${organizationId} FOR UPDATE`,
  );
  const [row] = await tx
    .select({ total: count() })
    .from(schema.application)
    .where(
      and(
        eq(schema.application.organizationId, organizationId),
        inArray(schema.application.state, [...states]),
      ),
    );
  return row?.total ?? 0;
}

export async function insertApplication(
  executor: Executor,
  organizationId: string,
  values: { id: string; name: string; plan: PlanKey; region: RegionKey },
): Promise<ApplicationRow> {
  const [row] = await executor
    .insert(schema.application)
    .values({ ...values, organizationId, state: 'initializing' })
    .returning();
  if (!row) throw new Error('application insert returned no row');
  return row;
}

/**
 * Updates an application of the organisation only while it is still in the expected state;
 * undefined when it moved on or belongs to another organisation.
 */
export async function updateApplicationInState(
  executor: Executor,
  organizationId: string,
  applicationId: string,
  expectedState: ApplicationState,
  values: Partial<Pick<ApplicationRow, 'name' | 'state' | 'deactivatedAt'>>,
): Promise<ApplicationRow | undefined> {
  const [row] = await executor
    .update(schema.application)
    .set(values)
    .where(
      and(
        eq(schema.application.organizationId, organizationId),
        eq(schema.application.id, applicationId),
        eq(schema.application.state, expectedState),
      ),
    )
    .returning();
  return row;
}

/*
 * The provisioning job's writes are keyed by application id alone: the job acts for an
 * application it was given by id (the job id), not for a caller, so there is no caller's
 * organisation to scope by; each write waits for the state the job expects instead.
 */

/** The provisioning job keeps the region's network id and console URL while the app is initializing. */
export async function recordNetwork(
  executor: Executor,
  applicationId: string,
  network: Pick<ApplicationRow, 'networkId' | 'consoleUrl'>,
) {
  await executor
    .update(schema.application)
    .set(network)
    .where(and(eq(schema.application.id, applicationId), eq(schema.application.state, 'initializing')));
}

/** Marks a provisioned app active and counts the successful attempt in one statement, so no reader sees one without the other. */
export async function markProvisioned(executor: Executor, applicationId: string) {
  await executor
    .update(schema.application)
    .set({
      state: 'active',
      provisioningAttempts: sql`${schema.application.provisioningAttempts} + 1`,
      lastProvisioningError: null,
    })
    .where(and(eq(schema.application.id, applicationId), eq(schema.application.state, 'initializing')));
}

export async function recordProvisioningAttempt(
  executor: Executor,
  applicationId: string,
  error: string | null,
) {
  await executor
    .update(schema.application)
    .set({
      provisioningAttempts: sql`${schema.application.provisioningAttempts} + 1`,
      lastProvisioningError: error,
    })
    .where(eq(schema.application.id, applicationId));
}

export async function listInitializingApplicationIds(executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ id: schema.application.id })
    .from(schema.application)
    .where(eq(schema.application.state, 'initializing'));
  return rows.map((row) => row.id);
}
