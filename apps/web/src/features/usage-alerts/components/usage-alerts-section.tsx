import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { uiPermissions } from '@portal/contracts';
import { IconPencil } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { AlertBox } from '../../../components/status-alert';
import { useSignedInAccount } from '../../../lib/account';
import { errorText } from '../../../lib/api-error';
import { addMessages, translate, useTranslation } from '../../../lib/i18n';
import { enUsageAlerts } from '../../../locales/en-usage-alerts';
import { useUsageAlertSettings } from '../api/get-usage-alert-settings';
import { USAGE_ALERTS_SECTION_ID } from '../usage-alert-text';
import { UsageAlertsForm } from './usage-alerts-form';
import { UsageAlertsSummary } from './usage-alerts-summary';

addMessages(enUsageAlerts);

/**
 * Subscription and licenses → Usage alerts (decision 044): the thresholds and who is emailed, for
 * those who see plan details; super-admins (MANAGE_USAGE_ALERTS) edit them here.
 */
export function UsageAlertsSection() {
  const { t } = useTranslation();
  const permissions = uiPermissions(useSignedInAccount().permissions);
  const canManage = permissions.includes('MANAGE_USAGE_ALERTS');
  const seesBilling = permissions.includes('VIEW_BILLING');
  const settings = useUsageAlertSettings();
  const [editing, setEditing] = useState(false);

  // A link to the section (the banner's) scrolls to it once it has its content.
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (settings.isSuccess && hash === `#${USAGE_ALERTS_SECTION_ID}`) section.current?.scrollIntoView();
  }, [settings.isSuccess, hash]);

  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      ref={section}
      id={USAGE_ALERTS_SECTION_ID}
      aria-labelledby="usage-alerts-title"
    >
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h3" id="usage-alerts-title">
              {t('usageAlerts.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('usageAlerts.intro')}
            </Text>
          </Stack>
          {canManage && settings.isSuccess && !editing && (
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => setEditing(true)}
              // Its full width beside a wrapping intro, not squeezed to its icon on a phone.
              flex="none"
            >
              {t('usageAlerts.edit')}
            </Button>
          )}
        </Group>
        {settings.isPending ? (
          <Loading />
        ) : settings.isError ? (
          <AlertBox kind="fail">
            <strong>{t('usageAlerts.loadError')}</strong> {translate(errorText(settings.error))}
          </AlertBox>
        ) : editing ? (
          <UsageAlertsForm settings={settings.data} onDone={() => setEditing(false)} />
        ) : (
          <UsageAlertsSummary settings={settings.data} seesBilling={seesBilling} />
        )}
      </Stack>
    </Card>
  );
}
