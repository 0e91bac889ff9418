import { MOBILE_BREAKPOINT_PX } from '@portal/contracts';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { useBrowserValue } from '../../../lib/hydration';
import { useTranslation } from '../../../lib/i18n';
import classes from './frame.module.css';
import { Navigation } from './navigation';
import { TopBar } from './top-bar';

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const narrowerThanBreakpoint = () => window.matchMedia(MOBILE_QUERY).matches;

/**
 * Whether the window is narrower than the mobile breakpoint; undefined in a server render and while
 * the browser takes it over, when the stylesheet alone lays the frame out for the width (its
 * data-width-unknown rules), so a server-rendered page paints right on a phone too.
 */
function useIsMobile(): boolean | undefined {
  return useBrowserValue(narrowerThanBreakpoint, subscribeToWidth);
}

/** The signed-in frame: top bar, left navigation (collapsed by default below the mobile breakpoint) and the page. */
export function AppLayout() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const widthUnknown = isMobile === undefined || undefined;
  // The user's choice holds for the width class it was made in; crossing the breakpoint resets it.
  const [choice, setChoice] = useState<{ isMobile: boolean; opened: boolean } | null>(null);
  const openedFor = (mobile: boolean | undefined) =>
    choice !== null && choice.isMobile === mobile ? choice.opened : !mobile;
  const opened = openedFor(isMobile);
  // Just after a take-over the width may not be in the state yet: a click reads it then.
  const mobileNow = () => isMobile ?? narrowerThanBreakpoint();
  const setOpened = (next: boolean) => setChoice({ isMobile: mobileNow(), opened: next });

  return (
    <>
      <header className={classes.header}>
        <TopBar
          navigationOpened={opened}
          widthUnknown={widthUnknown}
          onToggleNavigation={() => setOpened(!openedFor(mobileNow()))}
        />
      </header>
      <nav
        className={classes.navbar}
        aria-label={t('nav.label')}
        data-mobile={isMobile || undefined}
        data-collapsed={(!widthUnknown && !opened) || undefined}
        data-width-unknown={widthUnknown}
      >
        {/* Taken over after the page (decision 045, sixth part): until then its links work as links,
            and a click on it makes React take it over at once and then handle the click. */}
        <Suspense>
          <Navigation onNavigate={() => mobileNow() && setOpened(false)} />
        </Suspense>
      </nav>
      <main
        className={classes.main}
        data-with-navbar={(isMobile === false && opened) || undefined}
        data-width-unknown={widthUnknown}
      >
        {/* The frame stays on screen while the page's own code loads (router.tsx, lazyPage). */}
        <Outlet />
      </main>
    </>
  );
}
