import { MOBILE_BREAKPOINT_PX } from '@portal/contracts';
import { Suspense, useState, useSyncExternalStore } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
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

/**
 * Whether the window is narrower than the mobile breakpoint; undefined in a server render and while
 * the browser takes it over, when the stylesheet alone lays the frame out for the width (its
 * data-width-unknown rules), so a server-rendered page paints right on a phone too.
 */
function useIsMobile(): boolean | undefined {
  return useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => undefined,
  );
}

/** The signed-in frame: top bar, left navigation (collapsed by default below the mobile breakpoint) and the page. */
export function AppLayout() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const widthUnknown = isMobile === undefined || undefined;
  // The user's choice holds for the width class it was made in; crossing the breakpoint resets it.
  const [choice, setChoice] = useState<{ isMobile: boolean; opened: boolean } | null>(null);
  const opened = choice !== null && choice.isMobile === isMobile ? choice.opened : !isMobile;
  const setOpened = (next: boolean) => setChoice({ isMobile: isMobile ?? false, opened: next });

  return (
    <>
      <header className={classes.header}>
        <TopBar
          navigationOpened={opened}
          widthUnknown={widthUnknown}
          onToggleNavigation={() => setOpened(!opened)}
        />
      </header>
      <nav
        className={classes.navbar}
        aria-label={t('nav.label')}
        data-mobile={isMobile || undefined}
        data-collapsed={(!widthUnknown && !opened) || undefined}
        data-width-unknown={widthUnknown}
      >
        <Navigation onNavigate={() => isMobile && setOpened(false)} />
      </nav>
      <main
        className={classes.main}
        data-with-navbar={(isMobile === false && opened) || undefined}
        data-width-unknown={widthUnknown}
      >
        {/* The frame stays on screen while the page's own code loads. */}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
