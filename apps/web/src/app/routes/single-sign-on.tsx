import { SSO_DEFAULT_ROLE_IDS, type ApplicationScope } from '@portal/contracts';
import { withMantine } from '../../components/mantine-shell';
import { RoleAndAccessFields } from '../../features/members/components/role-and-access-fields';
import { SingleSignOnPage } from '../../features/sso/components/single-sign-on-page';
import { useTranslation } from '../../lib/i18n';

/** The default role and access of new SSO members: the members feature's fields, in the SSO form. */
function DefaultRoleAndAccess({ currentScopes }: { currentScopes: readonly ApplicationScope[] }) {
  const { t } = useTranslation();
  return (
    <RoleAndAccessFields
      roleIds={SSO_DEFAULT_ROLE_IDS}
      currentScopes={currentScopes}
      labels={{ role: t('ssoSettings.signIn.defaultRole'), access: t('ssoSettings.signIn.defaultAccess') }}
    />
  );
}

function SingleSignOn() {
  return (
    <SingleSignOnPage
      accessFields={(currentScopes) => <DefaultRoleAndAccess currentScopes={currentScopes} />}
    />
  );
}

export const Component = withMantine(SingleSignOn);
