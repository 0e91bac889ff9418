import { Alert, Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { APPLICATION_LIST_MAX_LIMIT, type UsageRecord } from '@portal/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useApplications } from '../../../api/applications/list-applications';
import { Loading } from '../../../components/page-loader';
import { formatDate, formatTime } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { useContracts } from '../api/list-contracts';
import { useUsages } from '../api/list-usages';
import {
  formatMau,
  isOverLicense,
  licenseUsagePercent,
  monthlyActiveUsers,
  subscriptionPlanLabel,
  subscriptionView,
} from '../plan-usage';
import { LabelledValue } from './labelled-value';
import { LoadError } from './load-error';
import { MonthlyUsageSection } from './monthly-usage-section';

/** When the usage was last imported from the regions, or that it has not been yet. */
function LatestUpdate({ updatedAt }: { updatedAt: string | null }) {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" size="sm">
      {updatedAt
        ? t('subscription.latestUpdate', { date: formatDate(updatedAt), time: formatTime(updatedAt) })
        : t('subscription.notUpdated')}
    </Text>
  );
}

/** PAYG: the month's total MAU and the applications with their plans. */
function PaygUsage({ mau }: { mau: Pick<UsageRecord, 'usage' | 'updatedAt'> }) {
  const { t } = useTranslation();
  const apps = useApplications(APPLICATION_LIST_MAX_LIMIT);
  const productName = usePublicConfig().data?.productName ?? '';
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" maw={420}>
        <LabelledValue large label={t('subscription.totalMau')}>
          {formatMau(mau.usage)}
        </LabelledValue>
        <LatestUpdate updatedAt={mau.updatedAt} />
      </Card>
      <MonthlyUsageSection />
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('subscription.applications')}
        </Title>
        {apps.isPending ? (
          <Loading />
        ) : apps.isError ? (
          <LoadError title={t('apps.loadError')} error={apps.error} />
        ) : apps.data.data.length === 0 ? (
          <Text c="dimmed">{t('subscription.noApplications')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('subscription.column.name')}</Table.Th>
                  <Table.Th>{t('subscription.column.id')}</Table.Th>
                  <Table.Th>{t('subscription.column.plan')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {apps.data.data.map((app) => (
                  <Table.Tr key={app.applicationId}>
                    <Table.Td>{app.name}</Table.Td>
                    <Table.Td ff="monospace">{app.applicationId}</Table.Td>
                    <Table.Td>{subscriptionPlanLabel(app, productName, t(`apps.plan.${app.plan}`))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}

/** Flat-rate: the month's MAU against the licence, red at 100 % or more (§9), with the support plan. */
function FlatRateUsage({
  mau,
  license,
  supportPlan,
}: {
  mau: Pick<UsageRecord, 'usage' | 'updatedAt'>;
  license: number;
  supportPlan: string;
}) {
  const { t } = useTranslation();
  const percent = licenseUsagePercent(mau.usage, license);
  const over = isOverLicense(percent);
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <LabelledValue large label={t('subscription.usageAgainstLicense')}>
            {t('subscription.usageOfLicense', { usage: formatMau(mau.usage), license: formatMau(license) })}
          </LabelledValue>
          <Text fw={600} c={over ? 'red' : undefined}>
            {t('subscription.percentUsed', { percent: Math.round(percent) })}
          </Text>
        </Group>
        <Progress
          value={Math.min(percent, 100)}
          color={over ? 'red' : 'blue'}
          size="lg"
          aria-label={t('subscription.usageAgainstLicense')}
        />
        <LatestUpdate updatedAt={mau.updatedAt} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg">
          <LabelledValue large label={t('subscription.supportPlan')}>
            {supportPlan || '—'}
          </LabelledValue>
          <LabelledValue large label={t('subscription.licenseMau')}>
            {formatMau(license)}
          </LabelledValue>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

/**
 * §2 /subscription-licenses/:sub: plan and licence usage, shaped by the contract type, then
 * `usageAlerts` (the usage alerts' section), which loads on its own.
 */
export function SubscriptionPage({ usageAlerts }: { usageAlerts?: ReactNode }) {
  const { t } = useTranslation();
  const contracts = useContracts();
  const usages = useUsages();

  const content = () => {
    if (contracts.isPending || usages.isPending) return <Loading />;
    if (contracts.isError) return <LoadError title={t('subscription.loadError')} error={contracts.error} />;
    if (usages.isError) return <LoadError title={t('subscription.loadError')} error={usages.error} />;
    const view = subscriptionView(contracts.data);
    const mau = monthlyActiveUsers(usages.data);
    if (view.kind === 'payg') return <PaygUsage mau={mau} />;
    if (view.kind === 'flat_rate')
      return (
        <Stack gap="lg">
          <FlatRateUsage mau={mau} license={view.license} supportPlan={view.supportPlan} />
          <MonthlyUsageSection />
        </Stack>
      );
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle aria-hidden />}
        role="alert"
        title={t('subscription.loadError')}
      >
        {t('subscription.unknownContract')}
      </Alert>
    );
  };

  return (
    <Stack gap="lg">
      <Title order={1}>{t('page.subscription')}</Title>
      {content()}
      {usageAlerts}
    </Stack>
  );
}
