import { Anchor, Stack, Table, Text } from '@mantine/core';
import type { AuditLogEntry } from '@portal/contracts';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { formatDate, formatTime } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { actionLabel, actorLabel, auditValueText, targetTypeLabel } from '../audit-labels';

/**
 * Emails, names and addresses keep their width in the table (which scrolls sideways rather than
 * squeeze them) and break within a word only when a phone's card has no room for them.
 */
const WRAPS_LONG_WORDS = { overflowWrap: 'break-word', minWidth: 0 } as const;

/** The entry's time in the browser's time zone: 05 Jan 2026 09:07. */
export function EntryTime({ createdAt }: { createdAt: string }) {
  return <time dateTime={createdAt}>{`${formatDate(createdAt)} ${formatTime(createdAt)}`}</time>;
}

/**
 * The entries in the order the server gave them (newest first). Each row opens its entry's detail;
 * the action is the row's button, so the keyboard reaches it too. On phones the rows are cards.
 */
export function AuditLogTable({
  entries,
  onOpen,
}: {
  entries: readonly AuditLogEntry[];
  onOpen: (entry: AuditLogEntry) => void;
}) {
  const { t } = useTranslation();
  return (
    <StackingTable
      aria-label={t('auditLog.entries')}
      minWidth={760}
      head={
        <>
          <Table.Th>{t('auditLog.column.time')}</Table.Th>
          <Table.Th>{t('auditLog.column.actor')}</Table.Th>
          <Table.Th>{t('auditLog.column.action')}</Table.Th>
          <Table.Th>{t('auditLog.column.target')}</Table.Th>
          <Table.Th>{t('auditLog.column.ip')}</Table.Th>
        </>
      }
    >
      {entries.map((entry) => (
        <Table.Tr key={entry.id} onClick={() => onOpen(entry)} style={{ cursor: 'pointer' }}>
          <LabelledCell>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              <EntryTime createdAt={entry.createdAt} />
            </Text>
          </LabelledCell>
          <LabelledCell label={t('auditLog.column.actor')}>
            <Text size="sm" style={WRAPS_LONG_WORDS}>
              {actorLabel(entry.actor)}
            </Text>
          </LabelledCell>
          <LabelledCell label={t('auditLog.column.action')}>
            <Anchor
              component="button"
              type="button"
              size="sm"
              fw={600}
              ta="left"
              onClick={(event) => {
                // The row opens it too; once is enough.
                event.stopPropagation();
                onOpen(entry);
              }}
            >
              {actionLabel(entry.action)}
            </Anchor>
          </LabelledCell>
          <LabelledCell label={t('auditLog.column.target')}>
            <Stack gap={0} style={WRAPS_LONG_WORDS}>
              <Text size="sm" style={WRAPS_LONG_WORDS}>
                {entry.target.name}
              </Text>
              <Text size="xs" c="dimmed">
                {targetTypeLabel(entry.target.type)}
              </Text>
            </Stack>
          </LabelledCell>
          <LabelledCell label={t('auditLog.column.ip')}>
            <Text size="sm" style={WRAPS_LONG_WORDS}>
              {auditValueText(entry.ip)}
            </Text>
          </LabelledCell>
        </Table.Tr>
      ))}
    </StackingTable>
  );
}
