import { useTranslation } from '../../../lib/i18n';
import { tourAnchor } from '../../../lib/tour-anchors';
import classes from './frame.module.css';
import { TrialBanner } from './trial-banner';
import { UserMenu } from './user-menu';

export function TopBar({
  navigationOpened,
  widthUnknown,
  onToggleNavigation,
}: {
  navigationOpened: boolean;
  /**
   * Set while the window's width is not known yet: the stylesheet then draws the button for it, and
   * the button does not say whether the navigation is open, which depends on the width.
   */
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
        aria-expanded={widthUnknown ? undefined : navigationOpened}
        data-width-unknown={widthUnknown}
        {...tourAnchor('navigation-toggle')}
      >
        <span />
        <span />
        <span />
      </button>
      <TrialBanner />
      {/* A wrapper for the tour to point at, which leaves the menu button's aria-expanded alone. */}
      <div className={classes.userMenu} {...tourAnchor('user-menu')}>
        <UserMenu />
      </div>
    </>
  );
}
