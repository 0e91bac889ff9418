import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { newestFirstPage } from '../../db/list-page.ts';
import { isOpenInvitation as isOpen } from '../../db/organization-seats.ts';
import * as schema from '../../db/schema.ts';

export { lockOrganizationAndCountSeats } from '../../db/organization-seats.ts';

export type InvitationRow = typeof schema.invitation.$inferSelect;


export async function listOpenInvitations(executor: Executor, organizationId: string, limit: number) {
  const where = and(eq(schema.invitation.organizationId, organizationId), isOpen);
  return newestFirstPage(executor, schema.invitation, where, limit);
}

export async function findInvitation(executor: Executor, organizationId: string, invitationId: string) {
  const [row] = await executor
    .select()
    .from(schema.invitation)
    .where(and(eq(schema.invitation.organizationId, organizationId), eq(schema.invitation.id, invitationId)))
    .limit(1);
  return row;
}

/** An invitation and its organisation's name by the hash of its code. */
export async function findInvitationByCodeHash(executor: Executor, codeHash: string) {
  const [row] = await executor
    .select({ invitation: schema.invitation, organizationName: schema.organization.name })
    .from(schema.invitation)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.invitation.organizationId))
    .where(eq(schema.invitation.codeHash, codeHash))
    .limit(1);
  return row;
}

/** Locks the invitation row until the transaction ends: one confirmation wins, a second sees it confirmed. */
export async function lockInvitation(tx: Tx, organizationId: string, invitationId: string) {
  const [row] = await tx
    .select()
    .from(schema.invitation)
    .where(and(eq(schema.invitation.organizationId, organizationId), eq(schema.invitation.id, invitationId)))
    .for('update')
    .limit(1);
  return row;
}


/** Which of the addresses already have a portal user, and the organisation each one belongs to. */
export async function findUsersByEmail(executor: Executor, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return executor
    .select({ email: schema.user.email, organizationId: schema.member.organizationId })
    .from(schema.user)
    .leftJoin(schema.member, eq(schema.member.userId, schema.user.id))
    .where(inArray(sql`lower(${schema.user.email})`, [...emails]));
}

export async function findOpenInvitationEmails(
  executor: Executor,
  organizationId: string,
  emails: readonly string[],
) {
  if (emails.length === 0) return [];
  const rows = await executor
    .select({ email: schema.invitation.email })
    .from(schema.invitation)
    .where(
      and(
        eq(schema.invitation.organizationId, organizationId),
        isOpen,
        inArray(schema.invitation.email, [...emails]),
      ),
    );
  return rows.map((row) => row.email);
}

export async function insertInvitations(
  executor: Executor,
  organizationId: string,
  rows: Omit<typeof schema.invitation.$inferInsert, 'organizationId'>[],
) {
  return executor
    .insert(schema.invitation)
    .values(rows.map((row) => ({ ...row, organizationId })))
    .returning();
}

/**
 * Changes an invitation of the organisation only while it is still open; undefined when it was
 * confirmed or cancelled meanwhile, or belongs to another organisation.
 */
export async function updateOpenInvitation(
  executor: Executor,
  organizationId: string,
  invitationId: string,
  values: Partial<Pick<InvitationRow, 'status' | 'codeHash' | 'expiresAt'>>,
) {
  const [row] = await executor
    .update(schema.invitation)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(schema.invitation.organizationId, organizationId),
        eq(schema.invitation.id, invitationId),
        isOpen,
      ),
    )
    .returning();
  return row;
}
