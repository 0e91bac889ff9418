import { AppShell } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@portal/contracts';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Outlet } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { Navigation } from './navigation';
import { TopBar } from './top-bar';

const NAVBAR_WIDTH = 264;

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
    <AppShell
      header={{ height: 64 }}
      navbar={{
        width: NAVBAR_WIDTH,
        breakpoint: MOBILE_BREAKPOINT_PX,
        collapsed: { mobile: !opened, desktop: !opened },
      }}
      padding="lg"
    >
      <AppShell.Header>
        <TopBar navigationOpened={opened} onToggleNavigation={() => setOpened(!opened)} />
      </AppShell.Header>
      <AppShell.Navbar aria-label={t('nav.label')}>
        <Navigation onNavigate={() => isMobile && setOpened(false)} />
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The frame stays on screen while the page's own code loads. */}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
