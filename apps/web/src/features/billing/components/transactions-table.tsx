import { Anchor, Table, VisuallyHidden } from '@mantine/core';
import type { Transaction } from '@portal/contracts';
import { Link } from 'react-router';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { canPayByCard, formatUsd } from '../transactions';
import { PayButton } from './pay-button';
import { StatusBadge } from './transaction-badges';

/** Narrower than this, the table scrolls sideways rather than squeezing its columns (phones get cards). */
const TABLE_MIN_WIDTH_PX = 760;
const amount = { ta: 'right', style: { fontVariantNumeric: 'tabular-nums' } } as const;

/**
 * §2 transaction table: id (to the detail), date, type, billing cycle, amount, status, and pay when
 * open; on phones each transaction is a card headed by its id.
 */
export function TransactionsTable({
  sub,
  transactions,
}: {
  sub: string;
  transactions: readonly Transaction[];
}) {
  const { t } = useTranslation();
  return (
    <StackingTable
      minWidth={TABLE_MIN_WIDTH_PX}
      head={
        <>
          <Table.Th>{t('billing.column.id')}</Table.Th>
          <Table.Th>{t('billing.column.date')}</Table.Th>
          <Table.Th>{t('billing.column.type')}</Table.Th>
          <Table.Th>{t('billing.column.billingCycle')}</Table.Th>
          <Table.Th ta="right">{t('billing.column.amount')}</Table.Th>
          <Table.Th>{t('billing.column.status')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('billing.column.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {transactions.map((transaction) => (
        <Table.Tr key={transaction.transactionId}>
          <LabelledCell>
            <Anchor component={Link} to={`/billing/${sub}/${transaction.transactionId}`} ff="monospace">
              {transaction.transactionId}
            </Anchor>
          </LabelledCell>
          <LabelledCell label={t('billing.column.date')}>
            {formatDate(transaction.transactionCreatedAt)}
          </LabelledCell>
          <LabelledCell label={t('billing.column.type')}>
            {t(`billing.type.${transaction.type}`)}
          </LabelledCell>
          <LabelledCell label={t('billing.column.billingCycle')}>
            {transaction.billingCycle ?? '—'}
          </LabelledCell>
          <LabelledCell label={t('billing.column.amount')} {...amount}>
            {formatUsd(transaction.amount)}
          </LabelledCell>
          <LabelledCell label={t('billing.column.status')}>
            <StatusBadge status={transaction.status} />
          </LabelledCell>
          <LabelledCell ta="right">
            {canPayByCard(transaction) && (
              <PayButton
                sub={sub}
                transaction={transaction}
                size="xs"
                variant="light"
                label={t('billing.pay')}
                aria-label={t('billing.payTransaction', { id: transaction.transactionId })}
              />
            )}
          </LabelledCell>
        </Table.Tr>
      ))}
    </StackingTable>
  );
}
