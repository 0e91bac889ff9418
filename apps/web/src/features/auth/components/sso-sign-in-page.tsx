import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Anchor, Button, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { SSO_DOMAIN_ALLOWED, SSO_DOMAIN_MAX_LENGTH, SsoDomainFormSchema } from '@portal/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { StatusAlert } from '../../../components/status-alert';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { ERROR_DESCRIPTION_PARAM } from '../../../lib/guard';
import { useSsoSignIn } from '../api/sso-sign-in';

/** Typed and pasted text alike keeps only letters, digits and dashes, up to the maximum length. */
function sanitizeDomain(value: string): string {
  return [...value]
    .filter((character) => SSO_DOMAIN_ALLOWED.test(character))
    .join('')
    .slice(0, SSO_DOMAIN_MAX_LENGTH);
}

/** §8: two identity-provider refusals have their own wording; anything else is shown as sent. */
function ssoErrorText(description: string): string {
  if (description.includes('USER_LIMIT_REACHED')) return 'sso.error.userLimitReached';
  if (description.includes('NOT_IN_WHITELIST')) return 'sso.error.notInWhitelist';
  return description;
}

export function SsoSignInPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const errorDescription = params.get(ERROR_DESCRIPTION_PARAM);
  const { mutate: startSso, isPending, error } = useSsoSignIn();
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(SsoDomainFormSchema),
    defaultValues: { domain: sanitizeDomain(params.get('org') ?? '') },
  });

  // A link such as /sign-in-sso?org=acme&init=true starts the organisation's SSO at once.
  const autoStarted = useRef(false);
  useEffect(() => {
    const requested = SsoDomainFormSchema.safeParse({ domain: params.get('org') ?? '' });
    if (autoStarted.current || params.get('init') !== 'true' || !requested.success) return;
    autoStarted.current = true;
    startSso(requested.data.domain);
  }, [params, startSso]);

  return (
    <CenteredFrame title={t('sso.title')}>
      <Text>{t('sso.intro')}</Text>
      {errorDescription && <StatusAlert kind="fail" message={ssoErrorText(errorDescription)} />}
      <form onSubmit={handleSubmit(({ domain }) => startSso(domain))} noValidate>
        <Stack gap="sm">
          <StatusAlert kind="fail" message={submitErrorText(error)} />
          <Controller
            control={control}
            name="domain"
            render={({ field }) => (
              <TextInput
                {...field}
                onChange={(event) => field.onChange(sanitizeDomain(event.currentTarget.value))}
                label={t('sso.domain')}
                maxLength={SSO_DOMAIN_MAX_LENGTH}
                autoComplete="organization"
                error={fieldError(errors.domain)}
                rightSectionPointerEvents="all"
                rightSection={
                  <Tooltip label={t('validation.ssoDomain.format')} multiline w={240} events={{ hover: true, focus: true, touch: true }}>
                    <ActionIcon variant="subtle" color="gray" aria-label={t('sso.domainRules')}>
                      <IconInfoCircle size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                }
              />
            )}
          />
          <Button type="submit" loading={isPending}>
            {t('sso.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t('auth.backToLogin')}
      </Anchor>
    </CenteredFrame>
  );
}
