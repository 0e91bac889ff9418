import { Autocomplete, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS, TRANSACTION_SORTS, type TransactionSort } from '@portal/contracts';
import { IconCreditCard, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { Pagination } from '../../../components/plain/pagination';
import { useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { useTransactions } from '../api/list-transactions';
import { useTransactionSearch } from '../api/search-transactions';
import { formatUsd, searchTermOf, showsPagination, transactionPageCount } from '../transactions';
import { LoadError } from './load-error';
import { PaymentReturnNotices } from './payment-return-notices';
import { TransactionsTable } from './transactions-table';

const isTransactionSort = (value: string | null): value is TransactionSort =>
  TRANSACTION_SORTS.some((sort) => sort === value);

/** The transactions matching a search term, in place of the pages while a term is entered. */
function SearchResults({ sub, term }: { sub: string; term: string }) {
  const { t } = useTranslation();
  const search = useTransactionSearch(term);
  if (search.isPending) return <Loading />;
  if (search.isError) return <LoadError title={t('billing.loadError')} error={search.error} />;
  if (search.data.length === 0)
    return (
      <Text c="dimmed" py="xl" ta="center" role="status">
        {t('billing.search.noResults', { term })}
      </Text>
    );
  return <TransactionsTable sub={sub} transactions={search.data} />;
}

/** One page of the organisation's transactions in the chosen order, with pages when there are more than 30. */
function TransactionPages({ sub, sortBy }: { sub: string; sortBy: TransactionSort }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useTransactions(page, sortBy);
  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError title={t('billing.loadError')} error={list.error} />;
  const { data, total } = list.data;
  if (total === 0)
    return (
      <Text c="dimmed" py="xl" ta="center">
        {t('billing.empty')}
      </Text>
    );
  return (
    <Stack gap="md">
      <TransactionsTable sub={sub} transactions={data} />
      {showsPagination(total) && (
        <Group justify="center">
          <Pagination
            total={transactionPageCount(total)}
            value={page}
            onChange={setPage}
            label={t('billing.pagination.label')}
            pageLabel={(item) => t('apps.pagination.page', { page: item })}
            previousLabel={t('apps.pagination.previous')}
            nextLabel={t('apps.pagination.next')}
          />
        </Group>
      )}
    </Stack>
  );
}

/** §2 /billing/:sub: the transactions, searchable by id and sortable, and what a payment came back with. */
export function BillingPage() {
  const { t } = useTranslation();
  const { sub = 'asc' } = useParams();
  const account = useSignedInAccount();
  const navigate = useNavigate();
  const [searchInput, setSearchInput] = useState('');
  const [debouncedInput] = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const term = searchTermOf(debouncedInput);
  const suggestions = useTransactionSearch(term);
  const [sortBy, setSortBy] = useState<TransactionSort>('lastCreated');

  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="md">
        <Title order={1}>{t('page.billing')}</Title>
        {/* A flat-rate contract is invoiced; the prepaid balance is PAYG's. */}
        {account.contractType === 'payg' && (
          <Group gap="md">
            <Text>
              {t('billing.balance')} <strong>{formatUsd(account.balance)}</strong>
            </Text>
            <Button
              component={Link}
              to={`/payment/${sub}/top-up`}
              leftSection={<IconCreditCard size={16} aria-hidden />}
            >
              {t('billing.topUp.open')}
            </Button>
          </Group>
        )}
      </Group>
      <Group justify="space-between" align="flex-end" gap="md">
        <Autocomplete
          label={t('billing.search.label')}
          placeholder={t('billing.search.placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          inputMode="numeric"
          value={searchInput}
          onChange={setSearchInput}
          data={term ? (suggestions.data ?? []).map((transaction) => transaction.transactionId) : []}
          onOptionSubmit={(transactionId) => void navigate(`/billing/${sub}/${transactionId}`)}
          w={{ base: '100%', xs: 320 }}
        />
        <Select
          label={t('billing.sort.label')}
          data={TRANSACTION_SORTS.map((sort) => ({ value: sort, label: t(`billing.sort.${sort}`) }))}
          value={sortBy}
          onChange={(value) => isTransactionSort(value) && setSortBy(value)}
          allowDeselect={false}
          disabled={term !== null}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      {term ? (
        <SearchResults sub={sub} term={term} />
      ) : (
        // A new order starts again from the first page.
        <TransactionPages key={sortBy} sub={sub} sortBy={sortBy} />
      )}
      <PaymentReturnNotices />
    </Stack>
  );
}
