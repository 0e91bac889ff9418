import { Stack, Table, Text, Title } from '@mantine/core';
import type { ComponentDetail, InvoiceType, Transaction } from '@portal/contracts';
import { Loading } from '../../../components/page-loader';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { useTranslation } from '../../../lib/i18n';
import { useTransactionDetail } from '../api/get-transaction-detail';
import { formatUsd, mauDetailRows } from '../transactions';
import { LoadError } from './load-error';

/** Narrower than this, the lines scroll sideways rather than squeezing their columns (phones get cards). */
const TABLE_MIN_WIDTH_PX = 560;
const numeric = { ta: 'right', style: { fontVariantNumeric: 'tabular-nums' } } as const;

/** A PAYG invoice: each application's monthly active users at its plan's price; on phones a card each. */
function MauLines({
  transaction,
  rows,
}: {
  transaction: Transaction;
  rows: ReturnType<typeof mauDetailRows>;
}) {
  const { t } = useTranslation();
  return (
    <StackingTable
      minWidth={TABLE_MIN_WIDTH_PX}
      aria-label={t('billing.detail.invoiceLines', { id: transaction.invoiceId ?? '' })}
      head={
        <>
          <Table.Th>{t('billing.detail.application')}</Table.Th>
          <Table.Th>{t('billing.detail.plan')}</Table.Th>
          <Table.Th {...numeric}>{t('billing.detail.mau')}</Table.Th>
          <Table.Th {...numeric}>{t('billing.detail.unitPrice')}</Table.Th>
          <Table.Th {...numeric}>{t('billing.column.amount')}</Table.Th>
        </>
      }
    >
      {rows.map((row, index) => (
        <Table.Tr key={row.application?.applicationId ?? index}>
          <LabelledCell>
            {row.application ? (
              <div>
                <Text size="sm">{row.application.name}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {row.application.applicationId}
                </Text>
              </div>
            ) : (
              '—'
            )}
          </LabelledCell>
          <LabelledCell label={t('billing.detail.plan')}>{row.productName}</LabelledCell>
          <LabelledCell label={t('billing.detail.mau')} {...numeric}>
            {row.MAUUsage.toLocaleString('en-US')}
          </LabelledCell>
          <LabelledCell label={t('billing.detail.unitPrice')} {...numeric}>
            {formatUsd(row.unitPrice)}
          </LabelledCell>
          <LabelledCell label={t('billing.column.amount')} {...numeric}>
            {formatUsd(row.price)}
          </LabelledCell>
        </Table.Tr>
      ))}
    </StackingTable>
  );
}

/** A flat-rate invoice: its components (licence fee, MAU above the licence, support plan); on phones a card each. */
function ComponentLines({ invoice }: { invoice: ComponentDetail }) {
  const { t } = useTranslation();
  return (
    <StackingTable
      minWidth={TABLE_MIN_WIDTH_PX}
      aria-label={t('billing.detail.invoiceLines', { id: invoice.invoiceId })}
      head={
        <>
          <Table.Th>{t('billing.detail.item')}</Table.Th>
          <Table.Th {...numeric}>{t('billing.detail.quantity')}</Table.Th>
          <Table.Th {...numeric}>{t('billing.column.amount')}</Table.Th>
        </>
      }
    >
      {invoice.components.map((component) => (
        <Table.Tr key={component.title}>
          <LabelledCell>{component.title}</LabelledCell>
          <LabelledCell label={t('billing.detail.quantity')} {...numeric}>
            {component.quantity.toLocaleString('en-US')}
          </LabelledCell>
          <LabelledCell label={t('billing.column.amount')} {...numeric}>
            {formatUsd(component.total_amount)}
          </LabelledCell>
        </Table.Tr>
      ))}
    </StackingTable>
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
