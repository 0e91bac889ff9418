import { Stack, Table, Text, Title } from '@mantine/core';
import type { ComponentDetail, InvoiceType, Transaction } from '@portal/contracts';
import { Loading } from '../../../components/page-loader';
import { useTranslation } from '../../../lib/i18n';
import { useTransactionDetail } from '../api/get-transaction-detail';
import { formatUsd, mauDetailRows } from '../transactions';
import { LoadError } from './load-error';

const TABLE_MIN_WIDTH_PX = 560;
const numeric = { ta: 'right', style: { fontVariantNumeric: 'tabular-nums' } } as const;

/** A PAYG invoice: each application's monthly active users at its plan's price. */
function MauLines({
  transaction,
  rows,
}: {
  transaction: Transaction;
  rows: ReturnType<typeof mauDetailRows>;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH_PX}>
      <Table
        verticalSpacing="sm"
        aria-label={t('billing.detail.invoiceLines', { id: transaction.invoiceId ?? '' })}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('billing.detail.application')}</Table.Th>
            <Table.Th>{t('billing.detail.plan')}</Table.Th>
            <Table.Th {...numeric}>{t('billing.detail.mau')}</Table.Th>
            <Table.Th {...numeric}>{t('billing.detail.unitPrice')}</Table.Th>
            <Table.Th {...numeric}>{t('billing.column.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={row.application?.applicationId ?? index}>
              <Table.Td>
                {row.application ? (
                  <>
                    <Text size="sm">{row.application.name}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {row.application.applicationId}
                    </Text>
                  </>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td>{row.productName}</Table.Td>
              <Table.Td {...numeric}>{row.MAUUsage.toLocaleString('en-US')}</Table.Td>
              <Table.Td {...numeric}>{formatUsd(row.unitPrice)}</Table.Td>
              <Table.Td {...numeric}>{formatUsd(row.price)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A flat-rate invoice: its components (licence fee, MAU above the licence, support plan). */
function ComponentLines({ invoice }: { invoice: ComponentDetail }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH_PX}>
      <Table verticalSpacing="sm" aria-label={t('billing.detail.invoiceLines', { id: invoice.invoiceId })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('billing.detail.item')}</Table.Th>
            <Table.Th {...numeric}>{t('billing.detail.quantity')}</Table.Th>
            <Table.Th {...numeric}>{t('billing.column.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.components.map((component) => (
            <Table.Tr key={component.title}>
              <Table.Td>{component.title}</Table.Td>
              <Table.Td {...numeric}>{component.quantity.toLocaleString('en-US')}</Table.Td>
              <Table.Td {...numeric}>{formatUsd(component.total_amount)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The invoice's lines, MAU-based or component-based as its type says (§3). */
export function InvoiceDetail({
  transaction,
  invoiceType,
}: {
  transaction: Transaction;
  invoiceType: InvoiceType;
}) {
  const { t } = useTranslation();
  const detail = useTransactionDetail(transaction.transactionId, invoiceType);
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('billing.detail.invoiceDetails')}
      </Title>
      {detail.isPending ? (
        <Loading />
      ) : detail.isError ? (
        <LoadError title={t('billing.detail.detailLoadError')} error={detail.error} />
      ) : detail.data.invoiceType === 'mau_based' ? (
        <MauLines transaction={transaction} rows={mauDetailRows(detail.data.lines, transaction.detail)} />
      ) : (
        detail.data.invoices.map((invoice) => <ComponentLines key={invoice.invoiceId} invoice={invoice} />)
      )}
    </Stack>
  );
}
