import { useTranslation } from '../../../lib/i18n';
import classes from './frame.module.css';
import { TrialBanner } from './trial-banner';
import { UserMenu } from './user-menu';

export function TopBar({
  navigationOpened,
  onToggleNavigation,
}: {
  navigationOpened: boolean;
  onToggleNavigation: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className={classes.burger}
        onClick={onToggleNavigation}
        aria-label={t('layout.toggleNavigation')}
        aria-expanded={navigationOpened}
      >
        <span />
        <span />
        <span />
      </button>
      <TrialBanner />
      <UserMenu />
    </>
  );
}
