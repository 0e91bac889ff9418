import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  SSO_ALLOWED_EMAILS_MAX,
  SSO_DOMAIN_MAX_LENGTH,
  SSO_EMAIL_DOMAINS_MAX,
  type ApplicationScope,
  type SsoSettings,
  type UpdateSsoSettingsRequest,
} from '@portal/contracts';
import { Fragment, useState, type ReactNode } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { StatusAlert } from '../../../components/status-alert';
import { useConfirmedChange } from '../../../components/use-confirmed-change';
import { ValidatedTagsInput } from '../../../components/validated-tags-input';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { sanitizeSsoDomain } from '../../../lib/sso-domain';
import { showToast } from '../../../lib/toasts';
import { useUpdateSsoSettings } from '../api/update-sso-settings';
import {
  isAllowedEmail,
  isEmailDomain,
  SettingsFormSchema,
  settingsFieldErrors,
  settingsFormValuesOf,
  settingsRequestOf,
  tagsFrom,
  type SettingsForm,
  type SettingsFormValues,
} from '../sso-form';
import { CopyableValue } from './copyable-value';
import { EmailDomainProofs } from './email-domain-proofs';
import { SettingsSection } from './settings-section';

/** The role and access fields of the members feature, put in by the route (features stay apart). */
export type AccessFields = (currentScopes: readonly ApplicationScope[]) => ReactNode;

const SPLIT_ON_SPACES_TOO = [',', ';', ' '];

/** The two lists of the form: the email domains the organisation owns, and other allowed addresses. */
const TAG_FIELDS: readonly {
  name: 'emailDomains' | 'allowedEmails';
  label: TranslationKey;
  hint: TranslationKey;
  placeholder: TranslationKey;
  max: number;
  isValid: (tag: string) => boolean;
  invalid: TranslationKey;
  isDomain: boolean;
}[] = [
  {
    name: 'emailDomains',
    label: 'ssoSettings.signIn.emailDomains',
    hint: 'ssoSettings.signIn.emailDomainsHint',
    placeholder: 'ssoSettings.signIn.emailDomainsPlaceholder',
    max: SSO_EMAIL_DOMAINS_MAX,
    isValid: isEmailDomain,
    invalid: 'validation.sso.emailDomain',
    isDomain: true,
  },
  {
    name: 'allowedEmails',
    label: 'ssoSettings.signIn.allowedEmails',
    hint: 'ssoSettings.signIn.allowedEmailsHint',
    placeholder: 'ssoSettings.signIn.allowedEmailsPlaceholder',
    max: SSO_ALLOWED_EMAILS_MAX,
    isValid: isAllowedEmail,
    invalid: 'validation.sso.allowedEmail',
    isDomain: false,
  },
];

/**
 * Beyond the spec: how members sign in through the identity provider. The SSO domain (sanitised as
 * on /sign-in-sso), the email domains the organisation owns and other allowed addresses, the role
 * and access of members who arrive this way, and whether single sign-on is required (asked first),
 * with the sign-in link. A refusal shows under the field it concerns.
 */
export function SignInSettingsForm({
  settings,
  accessFields,
}: {
  settings: SsoSettings;
  accessFields: AccessFields;
}) {
  const { t } = useTranslation();
  const update = useUpdateSsoSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SettingsFormValues, unknown, SettingsForm>({
    resolver: zodResolver(SettingsFormSchema),
    // Follows the saved settings (removing the connection turns enforcement off), keeping edits.
    values: settingsFormValuesOf(settings),
    resetOptions: { keepDirtyValues: true },
  });
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = form;

  const onSaved = (saved: SsoSettings) => {
    reset(settingsFormValuesOf(saved));
    showToast({ color: 'green', message: t('ssoSettings.signIn.saved') });
  };
  const onRefused = (error: Error) => {
    const placed = settingsFieldErrors(error);
    placed.forEach(({ field, message }) => setError(field, { message }));
    if (placed.length === 0) setFailure(submitErrorText(error));
  };
  const enforcement = useConfirmedChange({
    mutation: update,
    variables: (request: UpdateSsoSettingsRequest) => request,
    title: t('ssoSettings.signIn.enforceConfirmTitle'),
    question: () => t('ssoSettings.signIn.enforceConfirm'),
    confirmLabel: t('ssoSettings.signIn.enforceConfirmButton'),
    cancelLabel: t('ssoSettings.cancel'),
    onSuccess: onSaved,
    onError: onRefused,
  });

  const save = handleSubmit((checked) => {
    const request = settingsRequestOf(checked);
    setFailure(null);
    // Requiring single sign-on locks members out of their passwords: asked before it is sent.
    if (request.enforced && !settings.enforced) enforcement.ask(request);
    else update.mutate(request, { onSuccess: onSaved, onError: onRefused });
  });

  return (
    <SettingsSection id="sso-sign-in-title" title={t('ssoSettings.signIn.title')}>
      <FormProvider {...form}>
        <form onSubmit={save} noValidate aria-labelledby="sso-sign-in-title">
          <Stack gap="md">
            <Controller
              control={control}
              name="domain"
              render={({ field }) => (
                <TextInput
                  label={t('ssoSettings.signIn.domain')}
                  description={t('ssoSettings.signIn.domainHint')}
                  maxLength={SSO_DOMAIN_MAX_LENGTH}
                  autoComplete="off"
                  spellCheck={false}
                  required
                  name={field.name}
                  ref={field.ref}
                  value={field.value}
                  onChange={(event) => field.onChange(sanitizeSsoDomain(event.currentTarget.value))}
                  onBlur={field.onBlur}
                  error={fieldError(errors.domain)}
                />
              )}
            />
            {TAG_FIELDS.map(({ name, label, hint, placeholder, max, isValid, invalid, isDomain }) => (
              <Fragment key={name}>
                <Controller
                  control={control}
                  name={name}
                  render={({ field }) => (
                    <ValidatedTagsInput
                      label={t(label)}
                      description={t(hint)}
                      placeholder={t(placeholder)}
                      value={field.value}
                      onChange={(tags) => field.onChange(tagsFrom(tags, max, { isDomain }))}
                      onBlur={field.onBlur}
                      isValid={isValid}
                      invalidMessage={t(invalid)}
                      error={fieldError(errors[name])}
                      removeLabel={(value) => t('ssoSettings.signIn.remove', { value })}
                      maxTags={max}
                      splitChars={SPLIT_ON_SPACES_TOO}
                    />
                  )}
                />
                {isDomain && <EmailDomainProofs domains={settings.emailDomains} />}
              </Fragment>
            ))}
            <Stack gap="xs">
              <Text size="sm">{t('ssoSettings.signIn.newMembers')}</Text>
              {accessFields(settings.defaultApplicationScopes ?? [])}
            </Stack>
            <Controller
              control={control}
              name="enforced"
              render={({ field }) => (
                <Stack gap={4}>
                  <Switch
                    size="md"
                    label={t('ssoSettings.signIn.enforce')}
                    checked={field.value}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    // Without a connection nobody could sign in: only turning it off stays possible.
                    disabled={!settings.connection && !field.value}
                    error={fieldError(errors.enforced)}
                    aria-describedby="sso-enforce-hint"
                    styles={{ label: { fontWeight: 600 } }}
                  />
                  <Text size="sm" c="dimmed" id="sso-enforce-hint">
                    {t('ssoSettings.signIn.enforceHint')}
                    {!settings.connection && ` ${t('sso.error.notConfigured')}`}
                  </Text>
                </Stack>
              )}
            />
            {settings.signInUrl ? (
              <CopyableValue
                label={t('ssoSettings.signIn.link')}
                description={t('ssoSettings.signIn.linkHint')}
                value={settings.signInUrl}
              />
            ) : (
              <Text size="sm" c="dimmed">
                {t('ssoSettings.signIn.noLink')}
              </Text>
            )}
            <StatusAlert kind="fail" message={failure} />
            <Group justify="flex-end">
              <Button type="submit" disabled={!isDirty} loading={update.isPending}>
                {t('ssoSettings.signIn.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
      {enforcement.dialog}
    </SettingsSection>
  );
}
