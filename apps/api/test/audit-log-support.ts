import type { AuditLogEntry, ListAuditLogResponse } from '@portal/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { jsonRequest, setUpOrganization } from './helper.ts';

/** What the tests of the audit log's recording share: the log as the API reads it and as it is stored. */

/** The super-admin of a new organisation, who may read its log. */
export interface AuditedOwner {
  cookie: string;
  email: string;
  organizationId: string;
  memberId: string;
}

export async function newAuditedOwner(app: FastifyInstance, email: string): Promise<AuditedOwner> {
  const cookie = await setUpOrganization(app, email);
  const me = await app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  const { organizationId, memberId } = me.json() as { organizationId: string; memberId: string };
  return { cookie, email, organizationId, memberId };
}

/** The organisation's entries, newest first, as `GET /api/v1/audit-log` answers the member `cookie`. */
export async function auditEntries(
  app: FastifyInstance,
  cookie: string,
  query = '',
): Promise<AuditLogEntry[]> {
  const response = await app.inject(
    jsonRequest('GET', `/api/v1/audit-log?limit=200${query}`, undefined, cookie),
  );
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ListAuditLogResponse).results;
}

/** The organisation's stored entries, oldest first, every column: what a secret must never be in. */
export async function storedAuditRows(db: Db, organizationId: string) {
  return db
    .select()
    .from(schema.auditLogEntry)
    .where(eq(schema.auditLogEntry.organizationId, organizationId))
    .orderBy(asc(schema.auditLogEntry.id));
}

/**
 * What the entry of an account's status change holds: the status and the inactive reason, each as
 * it changed, and why (for `organizationId`, named Acme as the test organisations are).
 */
export function accountStatusChange(
  organizationId: string,
  status: 'active' | 'inactive',
  inactiveReason: { before: string | null; after: string | null },
  reason: string,
) {
  return {
    action: status === 'active' ? 'account.made_active' : 'account.made_inactive',
    target: { type: 'organization', id: organizationId, name: 'Acme' },
    changes: {
      status: { before: status === 'active' ? 'inactive' : 'active', after: status },
      inactiveReason,
      reason: { after: reason },
    },
  };
}

/**
 * Makes the database refuse new audit entries matching `condition` (a CHECK on the table, not applied
 * to the rows already there) while `run` runs: the change that records one must fail as a whole.
 */
export async function withAuditEntriesRefused(db: Db, condition: string, run: () => Promise<void>) {
  await db.execute(
    sql.raw(
      `ALTER TABLE audit_log_entry ADD CONSTRAINT refused_in_test CHECK (NOT (${condition})) NOT VALID`,
    ),
  );
  try {
    await run();
  } finally {
    await db.execute(sql.raw('ALTER TABLE audit_log_entry DROP CONSTRAINT refused_in_test'));
  }
}
