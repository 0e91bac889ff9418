import { useMediaQuery } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@portal/contracts';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { useTranslation } from '../../../lib/i18n';
import classes from './frame.module.css';
import { Navigation } from './navigation';
import { TopBar } from './top-bar';

/** The signed-in frame: top bar, left navigation (collapsed by default below the mobile breakpoint) and the page. */
export function AppLayout() {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`, false, {
    getInitialValueInEffect: false,
  });
  // The user's choice holds for the width class it was made in; crossing the breakpoint resets it.
  const [choice, setChoice] = useState<{ isMobile: boolean; opened: boolean } | null>(null);
  const opened = choice?.isMobile === isMobile ? choice.opened : !isMobile;
  const setOpened = (next: boolean) => setChoice({ isMobile, opened: next });

  return (
    <>
      <header className={classes.header}>
        <TopBar navigationOpened={opened} onToggleNavigation={() => setOpened(!opened)} />
      </header>
      <nav
        className={classes.navbar}
        aria-label={t('nav.label')}
        data-mobile={isMobile || undefined}
        data-collapsed={!opened || undefined}
      >
        <Navigation onNavigate={() => isMobile && setOpened(false)} />
      </nav>
      <main className={classes.main} data-with-navbar={(opened && !isMobile) || undefined}>
        {/* The frame stays on screen while the page's own code loads. */}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
