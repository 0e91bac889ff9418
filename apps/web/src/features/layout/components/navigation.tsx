import { PORTAL_VERSION, uiPermissions, type Permission, type PublicConfig } from '@portal/contracts';
import {
  IconApps,
  IconChevronRight,
  IconBook,
  IconChartBar,
  IconExternalLink,
  IconHelp,
  IconMessages,
  IconReceipt,
  IconRoute,
  IconSettings,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInAccount } from '../../../lib/account';
import { mayAccess } from '../../../lib/guard';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { tourAnchor, type TourAnchor } from '../../../lib/tour-anchors';
import classes from './frame.module.css';

interface PageItem {
  label: TranslationKey;
  to: string;
  access: Permission;
  /** Path prefixes on which the item is the current one. */
  activeOn: string[];
  icon?: Icon;
  /** The guided tour's step about this page. */
  tour?: TourAnchor;
}

const APPS: PageItem = {
  label: 'nav.apps',
  to: '/apps/asc',
  access: 'VIEW_APPLICATION',
  activeOn: ['/apps', '/create-app'],
  icon: IconApps,
};
const BILLING: PageItem = {
  label: 'nav.billing',
  to: '/billing/asc',
  access: 'VIEW_BILLING',
  activeOn: ['/billing', '/payment'],
  icon: IconReceipt,
  tour: 'billing',
};
const SETTINGS: PageItem[] = [
  {
    label: 'nav.manageMembers',
    to: '/manage-members',
    access: 'VIEW_MEMBER',
    activeOn: ['/manage-members', '/invite-members'],
    tour: 'manage-members',
  },
  {
    label: 'nav.managePayment',
    to: '/manage-payment',
    access: 'VIEW_BILLING',
    activeOn: ['/manage-payment'],
  },
  {
    label: 'nav.subscription',
    to: '/subscription-licenses/asc',
    access: 'VIEW_PLAN_DETAIL',
    activeOn: ['/subscription-licenses'],
  },
  // Beyond the spec: the organisation's single sign-on.
  {
    label: 'nav.singleSignOn',
    to: '/single-sign-on',
    access: 'MANAGE_SSO',
    activeOn: ['/single-sign-on'],
  },
  // Beyond the spec: the organisation's audit log (decision 042).
  {
    label: 'nav.auditLog',
    to: '/audit-log',
    access: 'VIEW_AUDIT_LOG',
    activeOn: ['/audit-log'],
  },
];

const HELP_LINKS: { key: keyof PublicConfig['helpLinks']; label: TranslationKey; icon: Icon }[] = [
  { key: 'developerPortal', label: 'nav.help.developerPortal', icon: IconWorldWww },
  { key: 'documentation', label: 'nav.help.documentation', icon: IconBook },
  { key: 'communityHub', label: 'nav.help.communityHub', icon: IconMessages },
  { key: 'faq', label: 'nav.help.faq', icon: IconHelp },
];

/** The tutorial guide is the portal's own guided tour, which /open-appcues starts on the application list. */
const TUTORIAL: PageItem = {
  label: 'nav.help.tutorial',
  to: '/open-appcues',
  access: 'VIEW_APPLICATION',
  activeOn: [],
  icon: IconRoute,
};

const iconOf = (ItemIcon: Icon) => <ItemIcon size={20} stroke={1.6} aria-hidden />;

/** §6 menu: each item needs its permission; organisation settings shows when any of its items does. */
export function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const account = useSignedInAccount();
  const { data: config } = usePublicConfig();
  const [settingsOpened, setSettingsOpened] = useState(true);
  const permissions = uiPermissions(account.permissions);
  const allowed = (item: PageItem) => mayAccess(item.access, { permissions });
  const isActive = (item: PageItem) => item.activeOn.some((prefix) => pathname.startsWith(prefix));
  const settings = SETTINGS.filter(allowed);

  const pageLink = (item: PageItem) => (
    <Link
      key={item.to}
      to={item.to}
      className={classes.item}
      aria-current={isActive(item) ? 'page' : undefined}
      onClick={onNavigate}
      {...(item.tour && tourAnchor(item.tour))}
    >
      {item.icon && iconOf(item.icon)}
      <span className={classes.itemLabel}>{t(item.label)}</span>
    </Link>
  );
  const externalLink = (href: string, label: string, ItemIcon: Icon, badge?: string) => (
    <a key={label} href={href} target="_blank" rel="noopener noreferrer" className={classes.item}>
      {iconOf(ItemIcon)}
      <span className={classes.itemLabel}>{label}</span>
      {badge ? <span className={classes.badge}>{badge}</span> : <IconExternalLink size={14} aria-hidden />}
    </a>
  );

  return (
    <>
      <div className={classes.organization}>
        <p className={classes.organizationName}>{account.organization}</p>
        <p className={classes.dimmed}>{t('nav.organizationId', { id: account.organizationId })}</p>
      </div>
      <div className={classes.items}>
        {allowed(APPS) && pageLink(APPS)}
        {permissions.includes('VIEW_DASHBOARD') &&
          config &&
          externalLink(config.dashboardUrl, t('nav.dashboard'), IconChartBar, t('nav.new'))}
        {allowed(BILLING) && pageLink(BILLING)}
        {settings.length > 0 && (
          <>
            <button
              type="button"
              className={classes.item}
              aria-expanded={settingsOpened}
              onClick={() => setSettingsOpened(!settingsOpened)}
            >
              {iconOf(IconSettings)}
              <span className={classes.itemLabel}>{t('nav.settings')}</span>
              <IconChevronRight size={14} className={classes.chevron} aria-hidden />
            </button>
            {settingsOpened && <div className={classes.children}>{settings.map(pageLink)}</div>}
          </>
        )}
        {config && (
          <>
            <p className={classes.helpHeading}>{t('nav.help')}</p>
            {HELP_LINKS.map(({ key, label, icon }) => externalLink(config.helpLinks[key], t(label), icon))}
            {allowed(TUTORIAL) && pageLink(TUTORIAL)}
          </>
        )}
      </div>
      <p className={`${classes.dimmed} ${classes.version}`}>{PORTAL_VERSION}</p>
    </>
  );
}
