import { Badge, Box, NavLink, Stack, Text } from '@mantine/core';
import { PORTAL_VERSION, uiPermissions, type Permission, type PublicConfig } from '@portal/contracts';
import {
  IconApps,
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
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { useSignedInAccount } from '../../../lib/account';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';

interface PageItem {
  label: TranslationKey;
  to: string;
  permission: Permission;
  /** Path prefixes on which the item is the current one. */
  activeOn: string[];
  icon?: Icon;
}

const APPS: PageItem = {
  label: 'nav.apps',
  to: '/apps/asc',
  permission: 'VIEW_APPLICATION',
  activeOn: ['/apps', '/create-app'],
  icon: IconApps,
};
const BILLING: PageItem = {
  label: 'nav.billing',
  to: '/billing/asc',
  permission: 'VIEW_BILLING',
  activeOn: ['/billing', '/payment'],
  icon: IconReceipt,
};
const SETTINGS: PageItem[] = [
  {
    label: 'nav.manageMembers',
    to: '/manage-members',
    permission: 'VIEW_MEMBER',
    activeOn: ['/manage-members', '/invite-members'],
  },
  {
    label: 'nav.managePayment',
    to: '/manage-payment',
    permission: 'VIEW_BILLING',
    activeOn: ['/manage-payment'],
  },
  {
    label: 'nav.subscription',
    to: '/subscription-licenses/asc',
    permission: 'VIEW_PLAN_DETAIL',
    activeOn: ['/subscription-licenses'],
  },
];

const HELP_LINKS: { key: keyof PublicConfig['helpLinks']; label: TranslationKey; icon: Icon }[] = [
  { key: 'developerPortal', label: 'nav.help.developerPortal', icon: IconWorldWww },
  { key: 'documentation', label: 'nav.help.documentation', icon: IconBook },
  { key: 'communityHub', label: 'nav.help.communityHub', icon: IconMessages },
  { key: 'faq', label: 'nav.help.faq', icon: IconHelp },
  { key: 'tutorial', label: 'nav.help.tutorial', icon: IconRoute },
];

const iconOf = (ItemIcon: Icon) => <ItemIcon size={20} stroke={1.6} aria-hidden />;

/** §6 menu: each item needs its permission; organisation settings shows when any of its items does. */
export function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const account = useSignedInAccount();
  const { data: config } = usePublicConfig();
  const permissions = uiPermissions(account.permissions);
  const allowed = (item: PageItem) => permissions.includes(item.permission);
  const isActive = (item: PageItem) => item.activeOn.some((prefix) => pathname.startsWith(prefix));
  const settings = SETTINGS.filter(allowed);

  const pageLink = (item: PageItem) => (
    <NavLink
      key={item.to}
      component={Link}
      to={item.to}
      label={t(item.label)}
      leftSection={item.icon && iconOf(item.icon)}
      active={isActive(item)}
      aria-current={isActive(item) ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
  const externalLink = (href: string, label: string, ItemIcon: Icon, badge?: string) => (
    <NavLink
      key={label}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      label={label}
      leftSection={iconOf(ItemIcon)}
      rightSection={
        badge ? (
          <Badge size="sm" variant="filled">
            {badge}
          </Badge>
        ) : (
          <IconExternalLink size={14} aria-hidden />
        )
      }
    />
  );

  return (
    <>
      <Box p="md" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text fw={700} lineClamp={2}>
          {account.organization}
        </Text>
        <Text size="xs" c="dimmed">
          {t('nav.organizationId', { id: account.organizationId })}
        </Text>
      </Box>
      <Box p="xs" style={{ flex: 1, overflowY: 'auto' }}>
        {allowed(APPS) && pageLink(APPS)}
        {permissions.includes('VIEW_DASHBOARD') &&
          config &&
          externalLink(config.dashboardUrl, t('nav.dashboard'), IconChartBar, t('nav.new'))}
        {allowed(BILLING) && pageLink(BILLING)}
        {settings.length > 0 && (
          <NavLink
            label={t('nav.settings')}
            leftSection={iconOf(IconSettings)}
            defaultOpened
            childrenOffset={32}
          >
            {settings.map(pageLink)}
          </NavLink>
        )}
        {config && (
          <Stack gap={0} mt="md">
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6}>
              {t('nav.help')}
            </Text>
            {HELP_LINKS.map(({ key, label, icon }) => externalLink(config.helpLinks[key], t(label), icon))}
          </Stack>
        )}
      </Box>
      <Text size="xs" c="dimmed" p="md">
        {PORTAL_VERSION}
      </Text>
    </>
  );
}
