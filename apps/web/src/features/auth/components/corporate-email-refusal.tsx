import { useSearchParams } from 'react-router';
import { TextLink } from '../../../components/plain/buttons';
import { AlertBox } from '../../../components/status-alert';
import { ERROR_DESCRIPTION_PARAM, isCorporateEmailRefusal } from '../../../lib/guard';
import { useTranslation } from '../../../lib/i18n';

/**
 * Google sign-in with a personal address comes back with CORPORATE_EMAIL_REQUIRED (§8) to the page
 * it started on; the link leads to sign-up by email (on /signup, to its form without the message).
 */
export function CorporateEmailRefusal() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (!isCorporateEmailRefusal(params.get(ERROR_DESCRIPTION_PARAM))) return null;
  return (
    <AlertBox kind="fail">
      {t('signupForm.email.validation.corporate.lambda.error')}
      <br />
      <TextLink to="/signup" small>
        {t('auth.corporate.signUpLink')}
      </TextLink>
    </AlertBox>
  );
}
