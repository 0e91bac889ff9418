import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { MenuOnFirstUse } from '../../../components/menu-on-first-use';
import { editProfileState, useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import classes from './frame.module.css';

/** Up to two initials of the name, as an avatar shows them. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

export function UserMenu() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const roleIds = account.roles.map((role) => role.id).join(', ');
  return (
    <MenuOnFirstUse
      width={220}
      target={(props) => (
        <button
          type="button"
          className={classes.userButton}
          aria-label={t('layout.userMenu', { name: account.displayName })}
          {...props}
        >
          <span className={classes.avatar} aria-hidden>
            {initialsOf(account.displayName)}
          </span>
          <span className={classes.userText}>
            <span className={classes.userName}>{account.displayName}</span>
            <span className={classes.dimmed}>{roleIds}</span>
          </span>
          <IconChevronDown size={16} aria-hidden />
        </button>
      )}
      entries={[
        {
          key: 'edit-profile',
          label: t('layout.editProfile'),
          icon: IconUserCircle,
          link: { to: '/edit-profile', state: editProfileState(account) },
        },
        { key: 'sign-out', label: t('layout.signOut'), icon: IconLogout, link: { to: '/logout' } },
      ]}
    />
  );
}
