import { Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { reloadAccount, useSignedInAccount } from '../../../lib/account';
import { Trans, useTranslation } from '../../../lib/i18n';
import TwoFactorEnrolment from './two-factor-enrolment';

/**
 * Beyond the spec: /two-factor-setup, where the route guard leads a member whose organisation
 * requires a second factor they do not have. Nothing else opens until it is on; once the backup
 * codes are seen the account is reloaded and the guard sends the member where they were going.
 */
export function TwoFactorSetupPage() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  return (
    <CenteredFrame title={t('twoFactor.setup.title')} width={640}>
      <Stack gap="lg">
        <Text>
          <Trans
            i18nKey="twoFactor.setup.intro"
            values={{ organization: account.organization || t('twoFactor.setup.yourOrganization') }}
            components={{ strong: <strong /> }}
          />
        </Text>
        <TwoFactorEnrolment
          hasPassword={account.hasPassword}
          account={account.userEmail}
          onDone={() => void reloadAccount()}
        />
        <Text size="sm" c="dimmed">
          {t('twoFactor.setup.later')} <Link to="/logout">{t('twoFactor.setup.signOut')}</Link>
        </Text>
      </Stack>
    </CenteredFrame>
  );
}
