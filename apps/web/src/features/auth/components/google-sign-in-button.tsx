import { IconBrandGoogle } from '@tabler/icons-react';
import { Button } from '../../../components/plain/buttons';
import { Divider } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { submitErrorText } from '../../../lib/form-errors';
import { rememberGoogleSignInOrigin } from '../../../lib/google-sign-in-origin';
import type { GoogleSignInOrigin } from '../../../lib/guard';
import { useTranslation } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { useGoogleSignIn } from '../api/social-sign-in';

/** Shown only when the portal is configured for Google sign-in. */
export function GoogleSignInButton({ startedOn }: { startedOn: GoogleSignInOrigin }) {
  const { t } = useTranslation();
  const { data: config } = usePublicConfig();
  const google = useGoogleSignIn();
  if (!config?.googleSignIn) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBrandGoogle size={18} aria-hidden />}
        loading={google.isPending}
        onClick={() => {
          rememberGoogleSignInOrigin(startedOn);
          google.mutate();
        }}
      >
        {t('auth.google')}
      </Button>
      <StatusAlert kind="fail" message={submitErrorText(google.error)} />
      <Divider label={t('auth.or')} />
    </>
  );
}
