import { useTranslation } from '../../../lib/i18n';
import classes from './frame.module.css';
import { TrialBanner } from './trial-banner';
import { UserMenu } from './user-menu';

export function TopBar({
  navigationOpened,
  widthUnknown,
  onToggleNavigation,
}: {
  navigationOpened: boolean;
  /** Set while the window's width is not known yet: the stylesheet then draws the button for it. */
  widthUnknown: true | undefined;
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
        data-width-unknown={widthUnknown}
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
