import {
  ActionIcon,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Menu,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { REGIONS, type Application, type Permission } from '@portal/contracts';
import {
  IconCheck,
  IconCopy,
  IconDots,
  IconExternalLink,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
} from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  applicationActions,
  canOpenConsole,
  cardDate,
  stateTagColor,
  type ApplicationAction,
} from '../application-list';

interface ApplicationCardProps {
  app: Application;
  showPlan: boolean;
  permissions: readonly Permission[];
  onAction: (action: ApplicationAction, app: Application) => void;
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

const ACTION_ICONS = {
  editName: IconPencil,
  deactivate: IconPlayerPause,
  reactivate: IconPlayerPlay,
} as const;
const ACTION_LABELS = {
  editName: 'apps.card.editName',
  deactivate: 'apps.card.deactivate',
  reactivate: 'apps.card.reactivate',
} as const;

/** One application of the §2 grid. Memoised: a keystroke in the search re-renders only cards that change. */
export const ApplicationCard = memo(function ApplicationCard({
  app,
  showPlan,
  permissions,
  onAction,
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
        {actions.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('apps.card.actions', { name: app.name })}
              >
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {actions.map((action) => {
                const ActionIconGlyph = ACTION_ICONS[action];
                return (
                  <Menu.Item
                    key={action}
                    color={action === 'deactivate' ? 'red' : undefined}
                    leftSection={<ActionIconGlyph size={16} aria-hidden />}
                    onClick={() => onAction(action, app)}
                  >
                    {t(ACTION_LABELS[action])}
                  </Menu.Item>
                );
              })}
            </Menu.Dropdown>
          </Menu>
        )}
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
                <Tooltip label={copied ? t('apps.card.idCopied') : t('apps.card.copyId')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color={copied ? 'green' : 'gray'}
                    size="sm"
                    onClick={copy}
                    aria-label={t('apps.card.copyId')}
                  >
                    {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                  </ActionIcon>
                </Tooltip>
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

      {consoleUrl ? (
        <Button
          component="a"
          href={consoleUrl}
          target="_blank"
          rel="noopener noreferrer"
          variant="light"
          mt="lg"
          rightSection={<IconExternalLink size={16} aria-hidden />}
        >
          {t('apps.card.console')}
        </Button>
      ) : (
        <Button variant="light" mt="lg" disabled rightSection={<IconExternalLink size={16} aria-hidden />}>
          {t('apps.card.console')}
        </Button>
      )}
    </Card>
  );
});
