import { padTransactionId } from '@portal/contracts';
import { Anchor, Breadcrumbs, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { PaymentSummary, Transaction } from '@portal/contracts';
import { IconCreditCard, IconFileDownload } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { usePaymentSummary } from '../api/get-payment-summary';
import { useTransaction } from '../api/get-transaction';
import { canPayByCard, formatUsd, hasPaymentSummary, transactionPaymentPath } from '../transactions';
import { InvoiceDetail } from './invoice-detail';
import { LabelledValue } from './labelled-value';
import { LoadError } from './load-error';
import { PaymentSummaryCard } from './payment-summary-card';
import { StatusBadge } from './transaction-badges';

/** The pay and download actions: paying only while open and once the amount due is known. */
function TransactionActions({
  sub,
  transaction,
  summary,
}: {
  sub: string;
  transaction: Transaction;
  summary: PaymentSummary | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      {transaction.invoiceId && (
        <Button
          component="a"
          href={`/billing/${sub}/${transaction.transactionId}/print`}
          target="_blank"
          rel="noopener"
          variant="default"
          leftSection={<IconFileDownload size={16} aria-hidden />}
        >
          {t('billing.detail.downloadInvoice')}
        </Button>
      )}
      {canPayByCard(transaction) && summary && (
        <Button
          component={Link}
          to={transactionPaymentPath(sub, transaction, summary.dueAmount)}
          leftSection={<IconCreditCard size={16} aria-hidden />}
        >
          {t('billing.detail.payByCard')}
        </Button>
      )}
    </Group>
  );
}

function TransactionContent({ sub, transaction }: { sub: string; transaction: Transaction }) {
  const { t } = useTranslation();
  const summary = usePaymentSummary(transaction.transactionId, hasPaymentSummary(transaction));
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Group gap="sm">
          <Title order={1}>{t('billing.detail.title', { id: transaction.transactionId })}</Title>
          <StatusBadge status={transaction.status} />
        </Group>
        <TransactionActions sub={sub} transaction={transaction} summary={summary.data} />
      </Group>
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          <LabelledValue label={t('billing.column.date')}>
            {formatDate(transaction.transactionCreatedAt)}
          </LabelledValue>
          <LabelledValue label={t('billing.column.type')}>
            {t(`billing.type.${transaction.type}`)}
          </LabelledValue>
          <LabelledValue label={t('billing.column.amount')}>{formatUsd(transaction.amount)}</LabelledValue>
          {transaction.billingCycle && (
            <LabelledValue label={t('billing.column.billingCycle')}>{transaction.billingCycle}</LabelledValue>
          )}
          {transaction.invoiceId && (
            <LabelledValue label={t('billing.detail.invoiceNumber')}>{transaction.invoiceId}</LabelledValue>
          )}
          {transaction.notes && (
            <LabelledValue label={t('billing.detail.notes')}>{transaction.notes}</LabelledValue>
          )}
        </SimpleGrid>
      </Card>
      {transaction.invoiceType && (
        <InvoiceDetail transaction={transaction} invoiceType={transaction.invoiceType} />
      )}
      {hasPaymentSummary(transaction) &&
        (summary.isPending ? (
          <Loading />
        ) : summary.isError ? (
          <LoadError title={t('billing.detail.summaryLoadError')} error={summary.error} />
        ) : (
          <PaymentSummaryCard summary={summary.data} />
        ))}
    </Stack>
  );
}

/**
 * §2 /billing/:sub/:id: a transaction, its invoice's lines, and the payment summary of a charge,
 * with pay by card when open.
 */
export function TransactionPage() {
  const { t } = useTranslation();
  const params = useParams();
  const sub = params.sub ?? 'asc';
  // The address may carry the id unpadded (/billing/asc/42); the page shows and asks for it padded.
  const id = padTransactionId(params.id ?? '');
  const transaction = useTransaction(id);
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to={`/billing/${sub}`}>
          {t('page.billing')}
        </Anchor>
        <Text aria-current="page">{t('billing.detail.title', { id })}</Text>
      </Breadcrumbs>
      {transaction.isPending ? (
        <Loading />
      ) : transaction.isError ? (
        <LoadError title={t('billing.detail.loadError')} error={transaction.error} />
      ) : (
        <TransactionContent sub={sub} transaction={transaction.data} />
      )}
    </Stack>
  );
}
