import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { ERROR_DESCRIPTION_PARAM, isCorporateEmailRefusal } from '../../../lib/guard';

/** Google sign-in with a personal address comes back with CORPORATE_EMAIL_REQUIRED (§8); the link leads to sign-up by email. */
export function CorporateEmailRefusal({ withSignUpLink }: { withSignUpLink: boolean }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (!isCorporateEmailRefusal(params.get(ERROR_DESCRIPTION_PARAM))) return null;
  return (
    <Alert role="alert" color="red" icon={<IconAlertCircle aria-hidden />}>
      <Stack gap={4} align="flex-start">
        {t('signupForm.email.validation.corporate.lambda.error')}
        {withSignUpLink && (
          <Anchor component={Link} to="/signup" size="sm">
            {t('auth.corporate.signUpLink')}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}
