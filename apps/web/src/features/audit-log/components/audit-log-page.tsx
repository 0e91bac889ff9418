import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { AuditLogEntry } from '@portal/contracts';
import { IconAlertCircle, IconDownload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/api-error';
import { translate, useTranslation } from '../../../lib/i18n';
import { useAuditLog } from '../api/list-audit-log';
import {
  exportHrefOf,
  filtersFromSearch,
  hasFilters,
  searchOfFilters,
  type AuditLogFilters,
} from '../audit-log-filters';
import { AuditEntryDetail } from './audit-entry-detail';
import { AuditLogFiltersBar, type ActorMember } from './audit-log-filters-bar';
import { AuditLogTable } from './audit-log-table';

const SKELETON_ROWS = 6;

function LoadingEntries() {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" role="status" aria-label={t('common.loading')}>
      {Array.from({ length: SKELETON_ROWS }, (_, row) => (
        <Skeleton key={row} height={40} radius="sm" />
      ))}
    </Stack>
  );
}

function LoadError({ error, retrying, onRetry }: { error: unknown; retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={t('auditLog.loadError')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{translate(errorText(error))}</Text>
        <Button variant="default" size="xs" onClick={onRetry} loading={retrying}>
          {t('auditLog.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * Organization settings → Audit log (/audit-log, VIEW_AUDIT_LOG): the organisation's entries, newest
 * first, a page at a time, filtered by what the address holds; an entry opens its detail. `members`
 * are the actors the filter offers besides the operator and the system.
 */
export function AuditLogPage({ members }: { members: readonly ActorMember[] }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const log = useAuditLog(filters);
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.results) ?? [], [log.data]);
  const [opened, setOpened] = useState<AuditLogEntry | null>(null);
  const [detailShown, setDetailShown] = useState(false);

  const setFilters = (next: AuditLogFilters) => setSearch(searchOfFilters(next), { replace: true });
  const open = (entry: AuditLogEntry) => {
    setOpened(entry);
    setDetailShown(true);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>{t('page.auditLog')}</Title>
          <Text c="dimmed" size="sm">
            {t('auditLog.intro')}
          </Text>
        </div>
        <Button
          component="a"
          href={exportHrefOf(filters)}
          download
          variant="default"
          leftSection={<IconDownload size={18} aria-hidden />}
        >
          {t('auditLog.export')}
        </Button>
      </Group>

      <AuditLogFiltersBar
        filters={filters}
        members={members}
        targetName={filters.targetId ? entries[0]?.target.name : undefined}
        onChange={setFilters}
      />

      {log.isPending && <LoadingEntries />}
      {log.isError && !log.isFetchNextPageError && (
        <LoadError error={log.error} retrying={log.isFetching} onRetry={() => void log.refetch()} />
      )}
      {log.isSuccess && entries.length === 0 && (
        <Text c="dimmed" py="xl" ta="center" role="status">
          {hasFilters(filters) ? t('auditLog.noMatch') : t('auditLog.empty')}
        </Text>
      )}
      {entries.length > 0 && <AuditLogTable entries={entries} onOpen={open} />}
      {log.isFetchNextPageError && (
        <LoadError
          error={log.error}
          retrying={log.isFetchingNextPage}
          onRetry={() => void log.fetchNextPage()}
        />
      )}
      {log.hasNextPage && !log.isFetchNextPageError && (
        <Group justify="center">
          <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            {t('auditLog.loadMore')}
          </Button>
        </Group>
      )}

      <AuditEntryDetail
        entry={opened}
        opened={detailShown}
        onClose={() => setDetailShown(false)}
        onShowTarget={(target) => {
          setDetailShown(false);
          setFilters({ ...filters, targetType: target.type, targetId: target.id });
        }}
      />
    </Stack>
  );
}
