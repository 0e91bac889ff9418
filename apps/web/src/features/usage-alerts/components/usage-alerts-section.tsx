import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { uiPermissions } from '@portal/contracts';
import { IconPencil } from '@tabler/icons-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
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

/** What a person does to move the page themselves: from then on it stays where they put it. */
const OWN_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Brings the element into view once `active`, and again whenever the page's layout changes above it
 * (the usage card and the chart above load on their own and push it down), until the person moves
 * the page themselves.
 */
function useKeptInView(element: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    const target = element.current;
    if (!active || !target) return;
    const bringIntoView = () => target.scrollIntoView();
    bringIntoView();
    const layout = new ResizeObserver(bringIntoView);
    layout.observe(document.body);
    const release = () => {
      layout.disconnect();
      for (const type of OWN_SCROLL_EVENTS) window.removeEventListener(type, release);
    };
    for (const type of OWN_SCROLL_EVENTS) window.addEventListener(type, release, { passive: true });
    return release;
  }, [element, active]);
}

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
  useKeptInView(section, settings.isSuccess && hash === `#${USAGE_ALERTS_SECTION_ID}`);

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
