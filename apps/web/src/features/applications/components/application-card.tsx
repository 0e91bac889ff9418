import { ActionIcon, Badge, Button, Card, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { REGIONS, type Application, type Permission } from '@portal/contracts';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  applicationActions,
  canOpenConsole,
  cardDate,
  stateTagColor,
  type ApplicationAction,
} from '../application-list';
import { ApplicationMenu } from './application-menu';

interface ApplicationCardProps {
  app: Application;
  showPlan: boolean;
  permissions: readonly Permission[];
  onAction: (action: ApplicationAction, app: Application) => void;
  onOpenConsole: (app: Application & { consoleUrl: string }) => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** One application of the §2 grid. Memoised: a keystroke in the search re-renders only cards that change. */
export const ApplicationCard = memo(function ApplicationCard({
  app,
  showPlan,
  permissions,
  onAction,
  onOpenConsole,
}: ApplicationCardProps) {
  const { t } = useTranslation();
  const actions = applicationActions(app.state, permissions);
  const date = cardDate(app);
  const consoleUrl = canOpenConsole(app) ? app.consoleUrl : null;
  // Mantine's light green and orange text reach only about 3.7:1 on their tint; darker text keeps the tag's colour at 4.5:1.
  const tagColor = stateTagColor(app.state);

  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={`app-${app.applicationId}-name`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Title
            order={2}
            size="h4"
            id={`app-${app.applicationId}-name`}
            lineClamp={2}
            style={{ overflowWrap: 'anywhere' }}
          >
            {app.name}
          </Title>
          <Badge
            color={tagColor}
            variant="light"
            c={`color-mix(in srgb, var(--mantine-color-${tagColor}-light-color), black 30%)`}
            w="fit-content"
          >
            {t(`apps.state.${app.state}`)}
          </Badge>
        </Stack>
        {actions.length > 0 && <ApplicationMenu app={app} actions={actions} onAction={onAction} />}
      </Group>

      {/* Grows so the console buttons of a row line up whatever the name's length. */}
      <Stack gap={6} mt="md" style={{ flexGrow: 1 }}>
        <Field label={t('apps.card.id')}>
          <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
            <Text size="sm" ff="monospace" truncate>
              {app.applicationId}
            </Text>
            <CopyButton value={app.applicationId}>
              {({ copied, copy }) => (
                // No tooltip: one per card costs a grid of new cards more than the whole search does.
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'green' : 'gray'}
                  size="sm"
                  onClick={copy}
                  aria-label={copied ? t('apps.card.idCopied') : t('apps.card.copyId')}
                >
                  {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                </ActionIcon>
              )}
            </CopyButton>
          </Group>
        </Field>
        <Field label={t(date.kind === 'created' ? 'apps.card.created' : 'apps.card.deactivated')}>
          <Text size="sm">{date.date}</Text>
        </Field>
        {showPlan && (
          <Field label={t('apps.card.plan')}>
            <Text size="sm">{app.planName}</Text>
          </Field>
        )}
        <Field label={t('apps.card.region')}>
          <Text size="sm">{REGIONS[app.region].name}</Text>
        </Field>
      </Stack>

      <Button
        variant="light"
        mt="lg"
        disabled={!consoleUrl}
        onClick={consoleUrl ? () => onOpenConsole({ ...app, consoleUrl }) : undefined}
        rightSection={<IconExternalLink size={16} aria-hidden />}
      >
        {t('apps.card.console')}
      </Button>
    </Card>
  );
});
