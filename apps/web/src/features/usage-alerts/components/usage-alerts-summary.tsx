import { List, Stack, Text } from '@mantine/core';
import type { UsageAlertSettingsResponse } from '@portal/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { describeAlert, keepsOldLowBalanceRule } from '../usage-alert-text';

/** A list under a title that names it, or what stands for an empty one; notes under both. */
function NamedList({
  id,
  title,
  items,
  empty,
  children,
}: {
  id: string;
  title: string;
  items: readonly { key: string; text: string }[];
  empty: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm" id={id}>
        {title}
      </Text>
      {items.length === 0 ? (
        <Text size="sm">{empty}</Text>
      ) : (
        <List size="sm" spacing={4} aria-labelledby={id}>
          {items.map(({ key, text }) => (
            <List.Item key={key}>{text}</List.Item>
          ))}
        </List>
      )}
      {children}
    </Stack>
  );
}

/** The thresholds in words and who is emailed besides the super-admins; what non-managers see. */
export function UsageAlertsSummary({
  settings,
  seesBilling,
}: {
  settings: UsageAlertSettingsResponse;
  /** Whether the caller sees money: without it the money thresholds are not in the answer at all. */
  seesBilling: boolean;
}) {
  const { t } = useTranslation();
  const thresholds = settings.alerts.map((alert) => {
    const { key, values } = describeAlert(alert, settings.licenseMau);
    return { key: `${alert.kind}:${alert.value}`, text: t(key, values) };
  });
  return (
    <Stack gap="md">
      <NamedList
        id="usage-alerts-thresholds"
        title={t('usageAlerts.thresholds')}
        items={thresholds}
        empty={t('usageAlerts.none')}
      >
        {settings.defaults && thresholds.length > 0 && (
          <Text size="sm" c="dimmed">
            {t('usageAlerts.defaults')}
          </Text>
        )}
        {seesBilling && keepsOldLowBalanceRule(settings) && (
          <Text size="sm" c="dimmed">
            {t('usageAlerts.oldLowBalanceRule')}
          </Text>
        )}
        {!seesBilling && settings.contractType === 'payg' && (
          <Text size="sm" c="dimmed">
            {t('usageAlerts.moneyHidden')}
          </Text>
        )}
      </NamedList>
      <NamedList
        id="usage-alerts-recipients"
        title={t('usageAlerts.recipients')}
        items={settings.recipients.map((email) => ({ key: email, text: email }))}
        empty={t('usageAlerts.noRecipients')}
      >
        <Text size="sm" c="dimmed">
          {t('usageAlerts.superAdminsTold')}
        </Text>
      </NamedList>
    </Stack>
  );
}
