import { REGIONS, type Application, type Permission } from '@portal/contracts';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { memo, useEffect, useState, type ReactNode } from 'react';
import { Button, IconButton } from '../../../components/plain/buttons';
import { Badge, Card } from '../../../components/plain/layout';
import { useTranslation } from '../../../lib/i18n';
import { useDisplayTimeZone } from '../../../lib/dates';
import { tourAnchor } from '../../../lib/tour-anchors';
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

/** How long the copy button shows "Copied". */
const COPIED_FOR_MS = 1000;

function CopyIdButton({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const Icon = copied ? IconCheck : IconCopy;
  return (
    // No tooltip: one per card costs a grid of new cards more than the whole search does.
    <IconButton
      label={copied ? t('apps.card.idCopied') : t('apps.card.copyId')}
      data-copied={copied || undefined}
      onClick={() => void navigator.clipboard.writeText(applicationId).then(() => setCopied(true))}
    >
      <Icon size={14} aria-hidden />
    </IconButton>
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
  const date = cardDate(app, useDisplayTimeZone());
  const consoleUrl = canOpenConsole(app) ? app.consoleUrl : null;

  return (
    <Card aria-labelledby={`app-${app.applicationId}-name`}>
      <div className={classes.header}>
        <div className={classes.heading}>
          <h2 id={`app-${app.applicationId}-name`} className={classes.name}>
            {app.name}
          </h2>
          <Badge color={stateTagColor(app.state)}>{t(`apps.state.${app.state}`)}</Badge>
        </div>
        {/* Keyed by the app: the card is reused for other apps (see the grid), its menu and copy state are not. */}
        {actions.length > 0 && (
          // The tour points at this wrapper: it marks what it points at and clears that afterwards,
          // which would take the menu button's own aria-expanded with it.
          <div {...tourAnchor('application-menu')}>
            <ApplicationMenu key={app.applicationId} app={app} actions={actions} onAction={onAction} />
          </div>
        )}
      </div>

      <dl className={classes.fields}>
        <Field label={t('apps.card.id')}>
          <span className={classes.id}>{app.applicationId}</span>
          <CopyIdButton key={app.applicationId} applicationId={app.applicationId} />
        </Field>
        <Field label={t(date.kind === 'created' ? 'apps.card.created' : 'apps.card.deactivated')}>
          {date.date}
        </Field>
        {showPlan && <Field label={t('apps.card.plan')}>{app.planName}</Field>}
        <Field label={t('apps.card.region')}>{REGIONS[app.region].name}</Field>
      </dl>

      <div className={classes.console} {...tourAnchor('application-console')}>
        <Button
          variant="light"
          disabled={!consoleUrl}
          onClick={consoleUrl ? () => onOpenConsole({ ...app, consoleUrl }) : undefined}
          rightSection={<IconExternalLink size={16} aria-hidden />}
        >
          {t('apps.card.console')}
        </Button>
      </div>
    </Card>
  );
});
