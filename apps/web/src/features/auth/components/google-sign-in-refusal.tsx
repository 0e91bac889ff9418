import { useSearchParams } from 'react-router';
import { TextLink } from '../../../components/plain/buttons';
import { AlertBox } from '../../../components/status-alert';
import { ERROR_DESCRIPTION_PARAM, ERROR_PARAM, isCorporateEmailRefusal } from '../../../lib/guard';
import { useTranslation } from '../../../lib/i18n';

/**
 * Google sign-in with a personal address comes back with CORPORATE_EMAIL_REQUIRED (§8) to the page
 * it started on; the link leads to sign-up by email (on /signup, to its form without the message).
 * Beyond the spec, one that Google ended otherwise (cancelled, expired) says so there too.
 */
export function GoogleSignInRefusal() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const error = params.get(ERROR_PARAM);
  if (!isCorporateEmailRefusal(params.get(ERROR_DESCRIPTION_PARAM))) {
    if (error === null || params.get(ERROR_DESCRIPTION_PARAM) !== null) return null;
    return (
      <AlertBox kind="fail">
        {t(error === 'access_denied' ? 'auth.google.cancelled' : 'auth.google.failed')}
      </AlertBox>
    );
  }
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
