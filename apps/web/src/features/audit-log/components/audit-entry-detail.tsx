import { Button, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AuditLogEntry } from '@portal/contracts';
import { IconFilter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { actionLabel, actorLabel, auditValueText, targetTypeLabel, utcTimeText } from '../audit-labels';
import { EntryTime } from './audit-log-table';

/** The fields' column is as wide as the drawer lets it be: an id or an email breaks anywhere. */
const BREAKS_ANYWHERE = { overflowWrap: 'anywhere' } as const;
const BREAKS_WORDS = { overflowWrap: 'break-word' } as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={120} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td style={BREAKS_ANYWHERE}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Every field of one entry, and its changes as field, before and after. */
function EntryFields({ entry }: { entry: AuditLogEntry }) {
  const { t } = useTranslation();
  const changes = Object.entries(entry.changes);
  return (
    <Stack gap="lg">
      <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
        <Table.Tbody>
          <Field label={t('auditLog.detail.time')}>
            <EntryTime createdAt={entry.createdAt} />
            <Text size="xs" c="dimmed">
              {utcTimeText(entry.createdAt)}
            </Text>
          </Field>
          <Field label={t('auditLog.detail.actor')}>{actorLabel(entry.actor)}</Field>
          <Field label={t('auditLog.detail.action')}>{actionLabel(entry.action)}</Field>
          <Field label={t('auditLog.detail.targetType')}>{targetTypeLabel(entry.target.type)}</Field>
          <Field label={t('auditLog.detail.targetId')}>{entry.target.id}</Field>
          <Field label={t('auditLog.detail.targetName')}>{entry.target.name}</Field>
          <Field label={t('auditLog.detail.ip')}>{auditValueText(entry.ip)}</Field>
          <Field label={t('auditLog.detail.userAgent')}>{auditValueText(entry.userAgent)}</Field>
          <Field label={t('auditLog.detail.requestId')}>{auditValueText(entry.requestId)}</Field>
        </Table.Tbody>
      </Table>

      <div>
        <Title order={3} size="h5" mb="xs">
          {t('auditLog.detail.changes')}
        </Title>
        {changes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('auditLog.detail.noChanges')}
          </Text>
        ) : (
          // Sized by the values, which break between words first, so a narrow drawer splits no role id.
          <Table withTableBorder fz="sm" horizontalSpacing="xs" aria-label={t('auditLog.detail.changes')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('auditLog.detail.field')}</Table.Th>
                <Table.Th>{t('auditLog.detail.before')}</Table.Th>
                <Table.Th>{t('auditLog.detail.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map(([field, { before, after }]) => (
                <Table.Tr key={field}>
                  <Table.Td style={BREAKS_WORDS}>{field}</Table.Td>
                  <Table.Td style={BREAKS_WORDS}>{auditValueText(before)}</Table.Td>
                  <Table.Td style={BREAKS_WORDS}>{auditValueText(after)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
    </Stack>
  );
}

/**
 * An entry in a drawer (the whole screen on phones). `entry` stays while the drawer closes, so it
 * slides out with its content. "Show entries for this target" filters the log to the entry's target.
 */
export function AuditEntryDetail({
  entry,
  opened,
  onClose,
  onShowTarget,
}: {
  entry: AuditLogEntry | null;
  opened: boolean;
  onClose: () => void;
  onShowTarget: (target: AuditLogEntry['target']) => void;
}) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  return (
    <Drawer
      opened={opened && entry !== null}
      onClose={onClose}
      position="right"
      size={isPhone ? '100%' : 'lg'}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      title={
        <Text fw={600} component="span">
          {t('auditLog.detail.title')}
        </Text>
      }
    >
      {entry && (
        <Stack gap="lg">
          <EntryFields entry={entry} />
          <Button
            variant="default"
            leftSection={<IconFilter size={16} aria-hidden />}
            onClick={() => onShowTarget(entry.target)}
          >
            {t('auditLog.detail.showTarget')}
          </Button>
        </Stack>
      )}
    </Drawer>
  );
}
