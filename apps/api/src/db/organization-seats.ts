import { OPEN_INVITATION_STATUSES } from '@portal/contracts';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from './client.ts';
import * as schema from './schema.ts';

/** An invitation that still holds a seat of its organisation. */
export const isOpenInvitation = inArray(schema.invitation.status, [...OPEN_INVITATION_STATUSES]);

/**
 * Locks the organisation row for the rest of the transaction, so concurrent joins (invitations,
 * SSO sign-ins) are counted one after the other, and counts its seats: members and open invitations.
 */
export async function lockOrganizationAndCountSeats(tx: Tx, organizationId: string) {
  await tx.execute(
    sql`SELECT id FROM ${schema.organization} WHERE ${schema.organization.id} = ${organizationId} FOR UPDATE`,
  );
  const [[members], [open]] = await Promise.all([
    tx.select({ total: count() }).from(schema.member).where(eq(schema.member.organizationId, organizationId)),
    tx
      .select({ total: count() })
      .from(schema.invitation)
      .where(and(eq(schema.invitation.organizationId, organizationId), isOpenInvitation)),
  ]);
  return { members: members?.total ?? 0, openInvitations: open?.total ?? 0 };
}
