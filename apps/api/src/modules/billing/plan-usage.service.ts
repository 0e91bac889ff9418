import {
  MONTHLY_USAGE_MONTHS,
  type ContractRecord,
  type MonthlyUsage,
  type UsageRecord,
} from '@portal/contracts';
import type { SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { requireMembership } from '../members/members.service.ts';
import { callerOrganizationId } from './billing-reads.ts';
import { billingCycleOf } from './billing-rules.ts';
import { listMonthlyUsage, sumCycleUsage } from './billing.repository.ts';
import { monthlyUsageByApplication, monthsUpTo } from './monthly-usage.ts';

/** The plan and licence usage page's reads (VIEW_PLAN_DETAIL). */
export function planUsageService({ db }: { db: Db }) {
  return {
    /** GET /api/v1/accounts/usages: the monthly active users of the current month so far. */
    async usages(user: SessionUser, now = new Date()): Promise<UsageRecord[]> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_PLAN_DETAIL');
      const { mau, updatedAt } = await sumCycleUsage(db, organizationId, billingCycleOf(now));
      return [{ type: 'mau', usage: mau, updatedAt: updatedAt?.toISOString() ?? null }];
    },

    /** GET /api/v1/accounts/contracts: the organisation's contract, read with the caller's session. */
    async contracts(user: SessionUser): Promise<ContractRecord[]> {
      const membership = await requireMembership(db, user);
      assertPermission(membership.member.roleId, 'VIEW_PLAN_DETAIL');
      const { contractType, licenseMau, supportPlan } = membership.organization;
      return [{ type: contractType, license: licenseMau, supportPlan }];
    },

    /** GET /api/v1/accounts/usages/monthly: each application's monthly active users of the last 12 months. */
    async monthlyUsages(user: SessionUser, now = new Date()): Promise<MonthlyUsage[]> {
      const organizationId = await callerOrganizationId(db, user, 'VIEW_PLAN_DETAIL');
      const months = monthsUpTo(now, MONTHLY_USAGE_MONTHS);
      return monthlyUsageByApplication(months, await listMonthlyUsage(db, organizationId, months));
    },
  };
}
