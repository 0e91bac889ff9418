import { Anchor, Paper, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { StatusAlert } from '../../../components/status-alert';
import { useConfirmedChange } from '../../../components/use-confirmed-change';
import { editProfileState, useSignedInAccount } from '../../../lib/account';
import { mayAccess } from '../../../lib/guard';
import { submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { showToast } from '../../../lib/toasts';
import { useUpdateOrganizationSecurity } from '../api/update-organization-security';

/**
 * Beyond the spec: on Manage members, the switch that requires two-factor authentication of the
 * organisation's members (those who sign in with a password or Google; single sign-on is left to the
 * identity provider's MFA). Asks before either change; shown with MANAGE_SECURITY, the super-admin's.
 */
export function RequireTwoFactorSwitch() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const [failure, setFailure] = useState<string | null>(null);
  const confirmation = useConfirmedChange({
    mutation: useUpdateOrganizationSecurity(),
    variables: (requireTwoFactor: boolean) => ({ requireTwoFactor }),
    title: t('twoFactor.require.confirmTitle'),
    question: (requireTwoFactor) =>
      t(requireTwoFactor ? 'twoFactor.require.confirmOn' : 'twoFactor.require.confirmOff'),
    confirmLabel: t('members.confirm.confirm'),
    cancelLabel: t('members.confirm.cancel'),
    onSuccess: (updated) =>
      showToast({
        color: 'green',
        message: t(updated.requireTwoFactor ? 'twoFactor.require.on' : 'twoFactor.require.off'),
      }),
    onError: (error) => setFailure(submitErrorText(error)),
  });
  if (!mayAccess('MANAGE_SECURITY', account)) return null;

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Switch
          size="md"
          labelPosition="left"
          label={t('twoFactor.require.label')}
          description={t('twoFactor.require.description')}
          checked={account.requireTwoFactor}
          styles={{ body: { justifyContent: 'space-between' }, label: { fontWeight: 600 } }}
          onChange={(event) => {
            setFailure(null);
            confirmation.ask(event.currentTarget.checked);
          }}
        />
        {!account.twoFactorEnabled && !account.requireTwoFactor && (
          <Text size="sm">
            {t('twoFactor.require.ownFirst')}{' '}
            <Anchor component={Link} to="/edit-profile" state={editProfileState(account)}>
              {t('layout.editProfile')}
            </Anchor>
          </Text>
        )}
        <StatusAlert kind="fail" message={failure} />
      </Stack>
      {confirmation.dialog}
    </Paper>
  );
}
