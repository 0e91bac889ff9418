import { SSO_DOMAIN_MAX_LENGTH } from '@portal/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Button, TextLink } from '../../../components/plain/buttons';
import { TextField } from '../../../components/plain/fields';
import { Stack, Text } from '../../../components/plain/layout';
import classes from '../../../components/plain/plain.module.css';
import { StatusAlert } from '../../../components/status-alert';
import { submitErrorText } from '../../../lib/form-errors';
import { ERROR_DESCRIPTION_PARAM } from '../../../lib/guard';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { sanitizeSsoDomain } from '../../../lib/sso-domain';
import { useSsoSignIn } from '../api/sso-sign-in';

/**
 * §8: two identity-provider refusals have their own wording; anything else is shown as sent. Beyond
 * the spec, a Google sign-in refused because the organisation requires single sign-on lands here too.
 */
function ssoErrorText(description: string): string {
  if (description.includes('USER_LIMIT_REACHED')) return 'sso.error.userLimitReached';
  if (description.includes('NOT_IN_WHITELIST')) return 'sso.error.notInWhitelist';
  if (description.includes('SSO_REQUIRED')) return 'sso.error.required';
  return description;
}

const loadSsoDomainSchema = () => import('@portal/contracts/auth').then((auth) => auth.SsoDomainFormSchema);

/** The domain rules, shown while the info button is hovered or focused. */
function DomainRules() {
  const { t } = useTranslation();
  const rulesId = useId();
  return (
    <>
      <button
        type="button"
        className={classes.iconButton}
        aria-label={t('sso.domainRules')}
        aria-describedby={rulesId}
      >
        <IconInfoCircle size={18} aria-hidden />
      </button>
      <span id={rulesId} role="tooltip" className={classes.tooltip}>
        {t('validation.ssoDomain.format')}
      </span>
    </>
  );
}

export function SsoSignInPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const errorDescription = params.get(ERROR_DESCRIPTION_PARAM);
  const { mutate: startSso, isPending, error } = useSsoSignIn();
  const form = useSchemaForm({
    defaultValues: { domain: sanitizeSsoDomain(params.get('org') ?? '') },
    loadSchema: loadSsoDomainSchema,
  });

  // A link such as /sign-in-sso?org=acme&init=true starts the organisation's SSO at once.
  const autoStarted = useRef(false);
  useEffect(() => {
    if (autoStarted.current || params.get('init') !== 'true') return;
    autoStarted.current = true;
    void loadSsoDomainSchema().then((schema) => {
      const requested = schema.safeParse({ domain: params.get('org') ?? '' });
      if (requested.success) startSso(requested.data.domain);
    });
  }, [params, startSso]);

  const domain = form.field('domain');
  return (
    <CenteredFrame title={t('sso.title')}>
      <Text>{t('sso.intro')}</Text>
      {errorDescription && <StatusAlert kind="fail" message={ssoErrorText(errorDescription)} />}
      <form onSubmit={form.handleSubmit(({ domain: requested }) => startSso(requested))} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={submitErrorText(error)} />
          <TextField
            {...domain}
            onChange={(event) => form.setValue('domain', sanitizeSsoDomain(event.currentTarget.value))}
            label={t('sso.domain')}
            maxLength={SSO_DOMAIN_MAX_LENGTH}
            autoComplete="organization"
            error={form.errorOf('domain')}
            rightSection={<DomainRules />}
          />
          <Button type="submit" loading={isPending}>
            {t('sso.submit')}
          </Button>
        </Stack>
      </form>
      <Text small centered>
        <TextLink to="/login">{t('auth.backToLogin')}</TextLink>
      </Text>
    </CenteredFrame>
  );
}
