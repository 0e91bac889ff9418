import { SSO_DOMAIN_MAX_LENGTH, type ErrorCode, type MessageKey } from '@portal/contracts';
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
import { ERROR_DESCRIPTION_PARAM, ERROR_PARAM } from '../../../lib/guard';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { sanitizeSsoDomain } from '../../../lib/sso-domain';
import { useSsoSignIn } from '../api/sso-sign-in';

/**
 * The refusals an SSO sign-in may end with (apps/api/src/auth/sso.ts), and a Google sign-in refused
 * because the organisation requires single sign-on, each shown in the portal's own words (§8).
 */
const SSO_REFUSAL_WORDING = {
  USER_LIMIT_REACHED: 'sso.error.userLimitReached',
  NOT_IN_WHITELIST: 'sso.error.notInWhitelist',
  SSO_SIGN_IN_REFUSED: 'sso.error.signInRefused',
  SSO_REQUIRED: 'sso.error.required',
  SSO_ORGANIZATION_NOT_FOUND: 'sso.error.organizationNotFound',
  CORPORATE_EMAIL_REQUIRED: 'signupForm.email.validation.corporate.lambda.error',
} as const satisfies Partial<Record<ErrorCode, MessageKey>>;

type KnownRefusal = keyof typeof SSO_REFUSAL_WORDING;
const isKnownRefusal = (code: string | undefined): code is KnownRefusal =>
  code !== undefined && Object.hasOwn(SSO_REFUSAL_WORDING, code);

/**
 * What the page says about a refused sign-in: the wording of its code, taken from `error` or from the
 * start of `error_description` (`CODE: message`), and one general message for anything else. The
 * text itself is never shown: anyone can put a link with their own words in front of a person
 * (decision 029, which overrides §8's "anything else shows its raw text").
 */
function ssoRefusalText(error: string | null, description: string | null): TranslationKey | null {
  if (error === null && description === null) return null;
  const leadingWord = description?.trim().match(/^[A-Za-z_]+(?=:|$)/)?.[0];
  const code = [error ?? undefined, leadingWord].map((word) => word?.toUpperCase()).find(isKnownRefusal);
  return code ? SSO_REFUSAL_WORDING[code] : 'sso.refusedGeneral';
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
  const refusal = ssoRefusalText(params.get(ERROR_PARAM), params.get(ERROR_DESCRIPTION_PARAM));
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
      <StatusAlert kind="fail" message={refusal} />
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
