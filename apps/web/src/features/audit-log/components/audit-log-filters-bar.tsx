import { Button, CloseButton, Grid, Group, Select, Text, TextInput } from '@mantine/core';
import { AUDIT_ACTION_GROUPS, AUDIT_TARGET_TYPES, type AuditTargetType } from '@portal/contracts';
import { IconFilterOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { actionGroupLabel, targetTypeLabel } from '../audit-labels';
import { actorChoiceOf, hasFilters, withActorChoice, type AuditLogFilters } from '../audit-log-filters';

/** A member the actor filter offers. */
export interface ActorMember {
  id: string;
  email: string;
}

const GROUP_OPTIONS = () =>
  AUDIT_ACTION_GROUPS.map((group) => ({ value: group, label: actionGroupLabel(group) }));
const TARGET_OPTIONS = () =>
  AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: targetTypeLabel(type) }));

const isTargetType = (value: string | null): value is AuditTargetType =>
  AUDIT_TARGET_TYPES.some((type) => type === value);

/**
 * The audit log's filters: actor, action group, target type and days. `targetName` names the one
 * target chosen from an entry's detail, whose filter is shown apart, as it is not picked here.
 */
export function AuditLogFiltersBar({
  filters,
  members,
  targetName,
  onChange,
}: {
  filters: AuditLogFilters;
  members: readonly ActorMember[];
  targetName: string | undefined;
  onChange: (filters: AuditLogFilters) => void;
}) {
  const { t } = useTranslation();
  const actorOptions = useMemo(
    () => [
      {
        group: t('auditLog.filter.members'),
        items: members.map((member) => ({ value: `member:${member.id}`, label: member.email })),
      },
      {
        group: t('auditLog.filter.others'),
        items: [
          { value: 'operator', label: t('auditLog.actor.operator') },
          { value: 'system', label: t('auditLog.actor.system') },
        ],
      },
    ],
    [members, t],
  );
  const groupOptions = useMemo(GROUP_OPTIONS, []);
  const targetOptions = useMemo(TARGET_OPTIONS, []);

  return (
    <div role="group" aria-label={t('auditLog.filter.label')}>
      {/* In a row on wide screens; on phones the actor (an email) has a line, the others half of one. */}
      <Grid columns={10} gap="sm">
        <Grid.Col span={{ base: 10, md: 2 }}>
          <Select
            label={t('auditLog.filter.actor')}
            placeholder={t('auditLog.filter.any')}
            data={actorOptions}
            value={actorChoiceOf(filters)}
            onChange={(choice) => onChange(withActorChoice(filters, choice))}
            searchable
            clearable
          />
        </Grid.Col>
        <Grid.Col span={{ base: 5, md: 2 }}>
          <Select
            label={t('auditLog.filter.action')}
            placeholder={t('auditLog.filter.any')}
            data={groupOptions}
            value={filters.actionGroup ?? null}
            onChange={(group) =>
              onChange({ ...filters, actionGroup: AUDIT_ACTION_GROUPS.find((known) => known === group) })
            }
            clearable
          />
        </Grid.Col>
        <Grid.Col span={{ base: 5, md: 2 }}>
          <Select
            label={t('auditLog.filter.target')}
            placeholder={t('auditLog.filter.any')}
            data={targetOptions}
            value={filters.targetType ?? null}
            // One target's filter belongs to its type: another type drops it.
            onChange={(type) =>
              onChange({ ...filters, targetType: isTargetType(type) ? type : undefined, targetId: undefined })
            }
            clearable
          />
        </Grid.Col>
        <Grid.Col span={{ base: 5, md: 2 }}>
          <TextInput
            type="date"
            label={t('auditLog.filter.from')}
            value={filters.from ?? ''}
            max={filters.to}
            onChange={(event) => onChange({ ...filters, from: event.currentTarget.value || undefined })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 5, md: 2 }}>
          <TextInput
            type="date"
            label={t('auditLog.filter.to')}
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => onChange({ ...filters, to: event.currentTarget.value || undefined })}
          />
        </Grid.Col>
      </Grid>
      {hasFilters(filters) && (
        <Group mt="sm" gap="xs">
          {filters.targetType && filters.targetId && (
            <Group gap={4} wrap="nowrap" miw={0}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('auditLog.filter.oneTarget', {
                  type: targetTypeLabel(filters.targetType),
                  name: targetName ?? filters.targetId,
                })}
              </Text>
              <CloseButton
                size="sm"
                aria-label={t('auditLog.filter.removeTarget')}
                onClick={() => onChange({ ...filters, targetId: undefined })}
              />
            </Group>
          )}
          <Button
            ml="auto"
            variant="subtle"
            size="compact-sm"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={() => onChange({})}
          >
            {t('auditLog.filter.clear')}
          </Button>
        </Group>
      )}
    </div>
  );
}
