import { Resolver } from 'node:dns/promises';
import {
  SSO_DOMAIN_CHALLENGE_PREFIX,
  SSO_DOMAIN_RECORD_VALUE_PREFIX,
  SSO_DOMAIN_VERIFIED_GRACE_HOURS,
  type SsoDomainCheckError,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { uniqueViolationOf } from '../../db/client.ts';
import type { AuditContext } from '../audit-log/audit-context.ts';
import { record } from '../audit-log/audit-log.record.ts';
import {
  domainsVerifiedElsewhere,
  recordEmailDomainCheck,
  syncProviderDomain,
  type EmailDomainRow,
} from './sso.repository.ts';

/** Each DNS server gets this long per try; a lookup makes two tries. */
const LOOKUP_TRY_TIMEOUT_MS = 2_500;
const LOOKUP_TRIES = 2;
/** Past this the lookup is cancelled, whatever the resolver is still trying. */
const LOOKUP_DEADLINE_MS = 8_000;
const HOUR_MS = 3_600_000;

/** The name that holds a domain's proof: `_portal-challenge.<domain>`. */
export function challengeNameOf(domain: string): string {
  return `${SSO_DOMAIN_CHALLENGE_PREFIX}.${domain}`;
}

/** The TXT record's value that proves the organisation holding this token owns the domain. */
export function recordValueOf(token: string): string {
  return `${SSO_DOMAIN_RECORD_VALUE_PREFIX}${token}`;
}

/** What DNS says of a domain's proof. */
export type DomainProofAnswer = 'found' | Exclude<SsoDomainCheckError, 'verified_elsewhere'>;

/** Asks DNS whether the domain publishes the record of this token. */
export type DomainProofLookup = (domain: string, token: string) => Promise<DomainProofAnswer>;

/**
 * The TXT lookup through node:dns: the system's resolvers, or DNS_SERVERS when set. A record may be
 * split into several strings (each at most 255 octets); they are joined before comparing.
 */
export function dnsDomainProofLookup(servers: readonly string[]): DomainProofLookup {
  return async (domain, token) => {
    const resolver = new Resolver({ timeout: LOOKUP_TRY_TIMEOUT_MS, tries: LOOKUP_TRIES });
    if (servers.length > 0) resolver.setServers([...servers]);
    const deadline = setTimeout(() => resolver.cancel(), LOOKUP_DEADLINE_MS);
    try {
      const records = await resolver.resolveTxt(challengeNameOf(domain));
      const expected = recordValueOf(token);
      return records.some((strings) => strings.join('').trim() === expected) ? 'found' : 'record_mismatch';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The name does not exist, or has no TXT record: an answer. Anything else is DNS failing.
      return code === 'ENOTFOUND' || code === 'ENODATA' ? 'record_not_found' : 'dns_unavailable';
    } finally {
      clearTimeout(deadline);
    }
  };
}

export interface EmailDomainCheckDeps {
  db: Db;
  lookup: DomainProofLookup;
  log: FastifyBaseLogger;
}

/** What a check did to a domain's state; superseded: another check or a settings save changed it first. */
export type EmailDomainCheckOutcome = 'verified' | 'still_verified' | 'pending' | 'back_to_pending' | 'superseded';

/**
 * Moves a domain between pending and verified: the check's outcome, the provider's linking domains
 * and the audit entry, in one transaction. Answers false, having changed and recorded nothing, when
 * the domain was moved or removed since the check read it.
 */
async function moveProof(
  db: Db,
  row: EmailDomainRow,
  values: Parameters<typeof recordEmailDomainCheck>[2],
  context: AuditContext,
): Promise<boolean> {
  const verified = values.verifiedAt !== null;
  return db.transaction(async (tx) => {
    if (!(await recordEmailDomainCheck(tx, row, values))) return false;
    await syncProviderDomain(tx, row.organizationId);
    await record(tx, {
      organizationId: row.organizationId,
      action: verified ? 'sso.domain_verified' : 'sso.domain_verification_lapsed',
      target: { type: 'email_domain', id: row.domain, name: row.domain },
      changes: {
        status: verified ? { before: 'pending', after: 'verified' } : { before: 'verified', after: 'pending' },
        ...(values.checkError ? { checkError: { after: values.checkError } } : {}),
      },
      context,
    });
    return true;
  });
}

/**
 * Asks DNS for one domain's proof and records the answer (Verify and the scheduled re-check alike).
 * A pending domain becomes verified when the record holds its token, unless another organisation
 * verified it first (the unique index on verified domains decides a race). A verified domain's
 * proof is renewed when the record is found; once DNS has answered that the record is missing or
 * different for SSO_DOMAIN_VERIFIED_GRACE_HOURS since it was last found, it goes back to pending.
 * DNS that does not answer changes no state. The provider's linking domains follow any change, and
 * the audit log records it as made by `context`: the member who pressed Verify, or the portal.
 */
export async function checkEmailDomain(
  deps: EmailDomainCheckDeps,
  row: EmailDomainRow,
  now: Date,
  context: AuditContext,
): Promise<EmailDomainCheckOutcome> {
  const { db, log } = deps;
  const pendingWith = async (checkError: SsoDomainCheckError) => {
    await recordEmailDomainCheck(db, row, { checkedAt: now, checkError, verifiedAt: null });
    return 'pending' as const;
  };
  if (!row.verifiedAt && (await domainsVerifiedElsewhere(db, row.organizationId, [row.domain])).length > 0)
    return pendingWith('verified_elsewhere');

  const answer = await deps.lookup(row.domain, row.verificationToken);
  if (answer === 'found') {
    const proven = { checkedAt: now, checkError: null, verifiedAt: now };
    if (row.verifiedAt) {
      await recordEmailDomainCheck(db, row, proven);
      return 'still_verified';
    }
    try {
      if (!(await moveProof(db, row, proven, context))) return 'superseded';
    } catch (error) {
      if (uniqueViolationOf(error)?.constraint !== 'sso_email_domain_verified_idx') throw error;
      return pendingWith('verified_elsewhere');
    }
    log.info({ organizationId: row.organizationId, domain: row.domain }, 'sso email domain verified');
    return 'verified';
  }
  if (!row.verifiedAt) return pendingWith(answer);
  const missingSince = now.getTime() - row.verifiedAt.getTime();
  const lapsed = answer !== 'dns_unavailable' && missingSince >= SSO_DOMAIN_VERIFIED_GRACE_HOURS * HOUR_MS;
  if (!lapsed) {
    await recordEmailDomainCheck(db, row, { checkedAt: now, checkError: answer, verifiedAt: row.verifiedAt });
    return 'still_verified';
  }
  if (!(await moveProof(db, row, { checkedAt: now, checkError: answer, verifiedAt: null }, context)))
    return 'superseded';
  log.warn(
    { organizationId: row.organizationId, domain: row.domain, checkError: answer },
    'sso email domain back to pending: its record has been missing for the grace period',
  );
  return 'back_to_pending';
}
