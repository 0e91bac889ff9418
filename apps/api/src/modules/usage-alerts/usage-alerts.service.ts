import {
  MONEY_USAGE_ALERT_KINDS,
  permissionsForRoles,
  type UsageAlertKind,
  type UsageAlertNotice,
  type UsageAlertSettings,
  type UsageAlertSettingsResponse,
} from '@portal/contracts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { lockOrganization } from '../accounts/accounts.repository.ts';
import { memberAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { changedFields, record } from '../audit-log/audit-log.record.ts';
import { billingCycleOf } from '../billing/billing-rules.ts';
import { requireMembership } from '../members/members.service.ts';
import { alertsInForce, kindAppliesTo } from './usage-alert-rules.ts';
import {
  findUsageAlertSetting,
  listUsageAlertNotices,
  saveUsageAlertSetting,
} from './usage-alerts.repository.ts';

type Organization = Membership['organization'];

/** Money figures are for those who see billing (VIEW_BILLING); an admin sees the usage kinds alone. */
function kindsVisibleTo(membership: Membership): (kind: UsageAlertKind) => boolean {
  const seesMoney = permissionsForRoles([membership.member.roleId]).includes('VIEW_BILLING');
  return (kind) => seesMoney || !MONEY_USAGE_ALERT_KINDS.includes(kind);
}

/** The set as the audit log keeps it: `kind:value` each, and the recipients. */
function auditedSetting(setting: UsageAlertSettings) {
  return {
    alerts: setting.alerts.map((alert) => `${alert.kind}:${alert.value}`),
    recipients: setting.recipients,
  };
}

/** GET/PUT /api/v1/usage-alerts and the month's notices (decision 044). */
export function usageAlertsService({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  async function settingsOf(membership: Membership, organization: Organization) {
    const saved = await findUsageAlertSetting(db, organization.id);
    const visible = kindsVisibleTo(membership);
    const alerts = saved ? saved.alerts : alertsInForce(undefined, organization.contractType);
    return {
      alerts: alerts.filter((alert) => visible(alert.kind)),
      recipients: saved?.recipients ?? [],
      defaults: !saved,
      contractType: organization.contractType,
      licenseMau: organization.licenseMau,
    } satisfies UsageAlertSettingsResponse;
  }

  return {
    async get(user: SessionUser): Promise<UsageAlertSettingsResponse> {
      const membership = await requireMembership(db, user);
      assertPermission(membership.member.roleId, 'VIEW_PLAN_DETAIL');
      return settingsOf(membership, membership.organization);
    },

    /**
     * Saves the whole set for the organisation's contract, recording what changed in the same
     * transaction. The organisation's row is locked, so two saves queue and each records against
     * what it replaced.
     */
    async put(user: SessionUser, origin: RequestOrigin, input: UsageAlertSettings) {
      const membership = await requireMembership(db, user);
      assertPermission(membership.member.roleId, 'MANAGE_USAGE_ALERTS');
      const organization = await db.transaction(async (tx) => {
        const locked = await lockOrganization(tx, membership.organization.id);
        if (!locked) throw new AppError('NOT_FOUND');
        const misfit = input.alerts.findIndex((alert) => !kindAppliesTo(alert.kind, locked.contractType));
        if (misfit >= 0)
          throw new AppError('USAGE_ALERT_NOT_FOR_CONTRACT', { field: `alerts.${misfit}.kind` });
        const saved = await findUsageAlertSetting(tx, locked.id);
        const before = saved ?? { alerts: alertsInForce(undefined, locked.contractType), recipients: [] };
        await saveUsageAlertSetting(tx, locked.id, input);
        const changes = changedFields(auditedSetting(before), auditedSetting(input));
        if (!saved || Object.keys(changes).length > 0) {
          await record(tx, {
            organizationId: locked.id,
            action: 'usage_alert.changed',
            target: { type: 'organization', id: locked.id, name: locked.name },
            changes,
            context: memberAuditContext(origin, user, membership),
          });
        }
        return locked;
      });
      return settingsOf(membership, organization);
    },

    /** This month's thresholds crossed that are still set: the banner of the application list. */
    async notices(user: SessionUser): Promise<UsageAlertNotice[]> {
      const membership = await requireMembership(db, user);
      assertPermission(membership.member.roleId, 'VIEW_PLAN_DETAIL');
      const { organization } = membership;
      const saved = await findUsageAlertSetting(db, organization.id);
      const inForce = new Set(
        alertsInForce(saved?.alerts, organization.contractType).map(
          (alert) => `${alert.kind}:${alert.value}`,
        ),
      );
      const visible = kindsVisibleTo(membership);
      const notices = await listUsageAlertNotices(db, organization.id, billingCycleOf(now()));
      return notices
        .filter((notice) => visible(notice.kind) && inForce.has(`${notice.kind}:${notice.threshold}`))
        .map((notice) => ({
          id: String(notice.id),
          kind: notice.kind,
          threshold: notice.threshold,
          figure: notice.figure,
          licenseMau: notice.licenseMau,
          cycle: notice.billingCycle,
          createdAt: notice.createdAt.toISOString(),
        }));
    },
  };
}
