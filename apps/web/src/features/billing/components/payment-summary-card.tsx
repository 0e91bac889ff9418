import { Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { PaymentSummary } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { formatUsd } from '../transactions';

/** One figure of a summary: its label and the amount in USD, bold for the totals. */
export function SummaryLine({ label, amount, strong }: { label: string; amount: number; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text fw={strong ? 700 : undefined}>{label}</Text>
      <Text fw={strong ? 700 : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatUsd(amount)}
      </Text>
    </Group>
  );
}

/** What the invoice comes to (§3 payment summary): subtotal, discount, taxes, total, then credit, paid and due. */
export function PaymentSummaryCard({ summary }: { summary: PaymentSummary }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" maw={480} w="100%" ml="auto">
      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('billing.summary.title')}
        </Title>
        <SummaryLine label={t('billing.summary.subTotal')} amount={summary.subTotal} />
        <SummaryLine label={t('billing.summary.discount')} amount={summary.discountAmount} />
        {summary.taxes.map((tax) => (
          <SummaryLine
            key={tax.title}
            label={t('billing.summary.tax', { title: tax.title, percentage: tax.percentage })}
            amount={tax.taxAmount}
          />
        ))}
        <SummaryLine label={t('billing.summary.total')} amount={summary.totalAmount} strong />
        <Divider />
        <SummaryLine label={t('billing.summary.credit')} amount={summary.creditAmount} />
        <SummaryLine label={t('billing.summary.paid')} amount={summary.paidAmount} />
        <SummaryLine label={t('billing.summary.due')} amount={summary.dueAmount} strong />
      </Stack>
    </Card>
  );
}
