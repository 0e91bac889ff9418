import { Box, Card, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import { Loading } from '../../../components/page-loader';
import { useTranslation } from '../../../lib/i18n';
import { useMonthlyUsages } from '../api/list-monthly-usages';
import { monthlyUsageView, type MonthlyUsageView } from '../monthly-usage';
import { formatMau } from '../plan-usage';
import { LoadError } from './load-error';

const MonthlyUsageChart = lazy(() => import('./monthly-usage-chart'));
const CHART_HEIGHT_PX = 300;

/** The chart's figures as a table for screen readers: a row per month, a column per application. */
function MonthlyUsageTable({ view }: { view: MonthlyUsageView }) {
  const { t } = useTranslation();
  return (
    <VisuallyHidden>
      <Table>
        <caption>{t('subscription.monthly.tableCaption', { from: view.from, to: view.to })}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('subscription.monthly.month')}</Table.Th>
            {view.series.map((series) => (
              <Table.Th key={series.key} scope="col">
                {series.label}
              </Table.Th>
            ))}
            <Table.Th scope="col">{t('subscription.monthly.total')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.months.map((month) => (
            <Table.Tr key={month.label}>
              <Table.Th scope="row">{month.label}</Table.Th>
              {month.mau.map((mau, index) => (
                <Table.Td key={view.series[index]?.key ?? index}>{formatMau(mau)}</Table.Td>
              ))}
              <Table.Td>{formatMau(month.total)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </VisuallyHidden>
  );
}

/** Beyond the spec: each application's monthly active users over the last 12 months (decision 017). */
export function MonthlyUsageSection() {
  const { t } = useTranslation();
  const titleId = useId();
  const usages = useMonthlyUsages();

  const content = () => {
    if (usages.isPending) return <Loading />;
    if (usages.isError) return <LoadError title={t('subscription.monthly.loadError')} error={usages.error} />;
    const view = monthlyUsageView(usages.data);
    if (view.series.length === 0) return <Text c="dimmed">{t('subscription.monthly.empty')}</Text>;
    const period = { from: view.from, to: view.to };
    return (
      <>
        <Text c="dimmed" size="sm">
          {t('subscription.monthly.period', period)}
        </Text>
        <Card withBorder padding="lg">
          <Suspense
            fallback={
              <Box h={CHART_HEIGHT_PX}>
                <Loading label={t('subscription.monthly.chartLoading')} />
              </Box>
            }
          >
            <MonthlyUsageChart
              view={view}
              label={t('subscription.monthly.chartLabel', period)}
              height={CHART_HEIGHT_PX}
            />
          </Suspense>
        </Card>
        <MonthlyUsageTable view={view} />
      </>
    );
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId}>
        {t('subscription.monthly.title')}
      </Title>
      {content()}
    </Stack>
  );
}
