import { Anchor, Table, VisuallyHidden } from '@mantine/core';
import type { Transaction } from '@portal/contracts';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { canPayByCard, formatUsd } from '../transactions';
import { PayButton } from './pay-button';
import { StatusBadge } from './transaction-badges';

/** Narrower than this, the table scrolls sideways rather than squeezing its columns. */
const TABLE_MIN_WIDTH_PX = 760;

/** §2 transaction table: id (to the detail), date, type, billing cycle, amount, status, and pay when open. */
export function TransactionsTable({
  sub,
  transactions,
}: {
  sub: string;
  transactions: readonly Transaction[];
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH_PX}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('billing.column.id')}</Table.Th>
            <Table.Th>{t('billing.column.date')}</Table.Th>
            <Table.Th>{t('billing.column.type')}</Table.Th>
            <Table.Th>{t('billing.column.billingCycle')}</Table.Th>
            <Table.Th ta="right">{t('billing.column.amount')}</Table.Th>
            <Table.Th>{t('billing.column.status')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('billing.column.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {transactions.map((transaction) => (
            <Table.Tr key={transaction.transactionId}>
              <Table.Td>
                <Anchor component={Link} to={`/billing/${sub}/${transaction.transactionId}`} ff="monospace">
                  {transaction.transactionId}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatDate(transaction.transactionCreatedAt)}</Table.Td>
              <Table.Td>{t(`billing.type.${transaction.type}`)}</Table.Td>
              <Table.Td>{transaction.billingCycle ?? '—'}</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatUsd(transaction.amount)}
              </Table.Td>
              <Table.Td>
                <StatusBadge status={transaction.status} />
              </Table.Td>
              <Table.Td ta="right">
                {canPayByCard(transaction) && (
                  <PayButton
                    sub={sub}
                    transactionId={transaction.transactionId}
                    size="xs"
                    variant="light"
                    label={t('billing.pay')}
                    aria-label={t('billing.payTransaction', { id: transaction.transactionId })}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
