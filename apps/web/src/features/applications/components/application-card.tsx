import { ActionIcon, Badge, Button, Card, CopyButton, Title } from '@mantine/core';
import { REGIONS, type Application, type Permission } from '@portal/contracts';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import {
  applicationActions,
  canOpenConsole,
  cardDate,
  stateTagColor,
  type ApplicationAction,
} from '../application-list';
import classes from './application-card.module.css';
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
    <div className={classes.field}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
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

  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={`app-${app.applicationId}-name`}>
      <div className={classes.header}>
        <div className={classes.heading}>
          <Title
            order={2}
            size="h4"
            id={`app-${app.applicationId}-name`}
            lineClamp={2}
            className={classes.name}
          >
            {app.name}
          </Title>
          <Badge color={stateTagColor(app.state)} variant="light" w="fit-content">
            {t(`apps.state.${app.state}`)}
          </Badge>
        </div>
        {/* Keyed by the app: the card is reused for other apps (see the grid), its menu and copy state are not. */}
        {actions.length > 0 && (
          <ApplicationMenu key={app.applicationId} app={app} actions={actions} onAction={onAction} />
        )}
      </div>

      <dl className={classes.fields}>
        <Field label={t('apps.card.id')}>
          <span className={classes.id}>{app.applicationId}</span>
          <CopyButton key={app.applicationId} value={app.applicationId}>
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
        </Field>
        <Field label={t(date.kind === 'created' ? 'apps.card.created' : 'apps.card.deactivated')}>
          {date.date}
        </Field>
        {showPlan && <Field label={t('apps.card.plan')}>{app.planName}</Field>}
        <Field label={t('apps.card.region')}>{REGIONS[app.region].name}</Field>
      </dl>

      <Button
        variant="light"
        className={classes.console}
        disabled={!consoleUrl}
        onClick={consoleUrl ? () => onOpenConsole({ ...app, consoleUrl }) : undefined}
        rightSection={<IconExternalLink size={16} aria-hidden />}
      >
        {t('apps.card.console')}
      </Button>
    </Card>
  );
});
