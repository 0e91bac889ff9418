import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ApplicationState, PlanKey, RegionKey } from '@portal/contracts';
import type { Db, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export type ApplicationRow = typeof schema.application.$inferSelect;

/** The application ids a member limited to selected applications may see (possibly none). */
export async function findMemberScope(db: Db, memberId: string): Promise<string[]> {
  const rows = await db
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
  db: Db,
  organizationId: string,
  scope: string[] | undefined,
  limit: number,
) {
  const where = visibleTo(organizationId, scope);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(schema.application)
      .where(where)
      .orderBy(desc(schema.application.createdAt), desc(schema.application.id))
      .limit(limit),
    db.select({ total: count() }).from(schema.application).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

export async function findApplication(
  db: Db,
  organizationId: string,
  scope: string[] | undefined,
  applicationId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(schema.application)
    .where(and(visibleTo(organizationId, scope), eq(schema.application.id, applicationId)))
    .limit(1);
  return row;
}

export async function findApplicationById(
  db: Db,
  applicationId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
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
  tx: Tx,
  values: { id: string; organizationId: string; name: string; plan: PlanKey; region: RegionKey },
): Promise<ApplicationRow> {
  const [row] = await tx
    .insert(schema.application)
    .values({ ...values, state: 'initializing' })
    .returning();
  if (!row) throw new Error('application insert returned no row');
  return row;
}

export async function addToMemberScope(tx: Tx, memberId: string, applicationId: string) {
  await tx.insert(schema.memberApplicationScope).values({ memberId, applicationId });
}

/** Updates an application only while it is still in the expected state; undefined when it moved on. */
export async function updateApplicationInState(
  db: Db | Tx,
  applicationId: string,
  expectedState: ApplicationState,
  values: Partial<Pick<ApplicationRow, 'name' | 'state' | 'deactivatedAt' | 'networkId' | 'consoleUrl'>>,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .update(schema.application)
    .set(values)
    .where(and(eq(schema.application.id, applicationId), eq(schema.application.state, expectedState)))
    .returning();
  return row;
}

/** Marks a provisioned app active and counts the successful attempt in one statement, so no reader sees one without the other. */
export async function markProvisioned(db: Db, applicationId: string) {
  await db
    .update(schema.application)
    .set({
      state: 'active',
      provisioningAttempts: sql`${schema.application.provisioningAttempts} + 1`,
      lastProvisioningError: null,
    })
    .where(and(eq(schema.application.id, applicationId), eq(schema.application.state, 'initializing')));
}

export async function recordProvisioningAttempt(db: Db, applicationId: string, error: string | null) {
  await db
    .update(schema.application)
    .set({
      provisioningAttempts: sql`${schema.application.provisioningAttempts} + 1`,
      lastProvisioningError: error,
    })
    .where(eq(schema.application.id, applicationId));
}

export async function listInitializingApplicationIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: schema.application.id })
    .from(schema.application)
    .where(eq(schema.application.state, 'initializing'));
  return rows.map((row) => row.id);
}
