import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Group, PasswordInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { SsoConnection, TestSsoConnectionResponse } from '@portal/contracts';
import { useMemo, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useConfirmedChange } from '../../../components/use-confirmed-change';
import { formatDate } from '../../../lib/dates';
import { applyFieldErrors, fieldError, submitErrorText } from '../../../lib/form-errors';
import { translate, useTranslation, type TranslationKey } from '../../../lib/i18n';
import { showToast, toastError } from '../../../lib/toasts';
import { errorText } from '../../../lib/api-error';
import { useDeleteSsoConnection } from '../api/delete-sso-connection';
import { useTestSsoConnection } from '../api/test-sso-connection';
import { useUpdateSsoConnection } from '../api/update-sso-connection';
import {
  CONNECTION_FIELDS,
  connectionFormSchema,
  connectionFormValuesOf,
  connectionKeyOf,
  connectionRequestOf,
  isCertificateExpired,
  type ConnectionFormValues,
} from '../sso-form';
import { DetailList } from './detail-list';
import { RadioChoice } from './radio-choice';
import { SettingsCard, SettingsSection } from './settings-section';

const PROTOCOL_LABEL: Record<SsoConnection['protocol'], TranslationKey> = {
  oidc: 'ssoSettings.idp.oidc',
  saml: 'ssoSettings.idp.saml',
};

/** A successful test, for the values it was run with. */
interface PassedTest {
  key: string;
  result: TestSsoConnectionResponse;
}

/**
 * Beyond the spec: the organisation's identity provider. OIDC (issuer, client id and secret) or
 * SAML (metadata XML, or sign-in URL, entity id and certificate). A connection is saved only once a
 * test of the very values on screen succeeded; the saved one is summarised and may be removed.
 */
export function IdentityProviderSection({ connection }: { connection: SsoConnection | null }) {
  const { t } = useTranslation();
  const test = useTestSsoConnection();
  const update = useUpdateSsoConnection();
  const [passed, setPassed] = useState<PassedTest | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const schema = useMemo(() => connectionFormSchema(connection), [connection]);
  const form = useForm<ConnectionFormValues>({
    resolver: zodResolver(schema),
    defaultValues: connectionFormValuesOf(connection),
  });
  const { control, handleSubmit, setError, reset, watch } = form;
  const values = watch();
  const currentKey = connectionKeyOf(values);
  const testedNow = passed?.key === currentKey ? passed.result : null;

  const startOver = (saved: SsoConnection | null) => {
    reset(connectionFormValuesOf(saved));
    setPassed(null);
    setFailure(null);
  };
  const refused = (error: Error) => {
    if (!applyFieldErrors(error, setError, CONNECTION_FIELDS)) setFailure(submitErrorText(error));
  };

  const testConnection = handleSubmit((checked) => {
    setFailure(null);
    test.mutate(connectionRequestOf(checked), {
      onSuccess: (result) => setPassed({ key: connectionKeyOf(checked), result }),
      onError: refused,
    });
  });

  const updateConnection = () => {
    if (!testedNow) return;
    setFailure(null);
    update.mutate(connectionRequestOf(values), {
      onSuccess: (settings) => {
        startOver(settings.connection);
        showToast({ color: 'green', message: t('ssoSettings.idp.saved') });
      },
      onError: refused,
    });
  };

  const deletion = useConfirmedChange({
    mutation: useDeleteSsoConnection(),
    variables: () => undefined,
    title: t('ssoSettings.idp.removeTitle'),
    question: () => t('ssoSettings.idp.removeText'),
    color: 'red',
    confirmLabel: t('ssoSettings.idp.removeConfirm'),
    cancelLabel: t('ssoSettings.cancel'),
    onSuccess: () => {
      startOver(null);
      showToast({ color: 'green', message: t('ssoSettings.idp.removed') });
    },
    onError: (error) => toastError(errorText(error)),
  });

  const inputOf = connectionInput(form);
  return (
    <SettingsSection
      id="sso-idp-title"
      title={t('ssoSettings.idp.title')}
      above={
        connection ? (
          <SavedConnection connection={connection} onDelete={() => deletion.ask(null)} />
        ) : (
          <Text c="dimmed">{t('ssoSettings.idp.none')}</Text>
        )
      }
    >
      <form onSubmit={testConnection} noValidate aria-labelledby="sso-idp-form-title">
        <Stack gap="sm">
          <Text fw={600} id="sso-idp-form-title">
            {t(connection ? 'ssoSettings.idp.change' : 'ssoSettings.idp.connect')}
          </Text>
          <Controller
            control={control}
            name="protocol"
            render={({ field }) => (
              <RadioChoice
                label={t('ssoSettings.idp.protocol')}
                value={field.value}
                onChange={field.onChange}
                options={[
                  { value: 'oidc', label: t('ssoSettings.idp.oidc') },
                  { value: 'saml', label: t('ssoSettings.idp.saml') },
                ]}
              />
            )}
          />
          {values.protocol === 'oidc' ? (
            <>
              <TextInput
                label={t('ssoSettings.idp.issuer')}
                description={t('ssoSettings.idp.issuerHint')}
                type="url"
                required
                {...inputOf('issuer')}
              />
              <TextInput label={t('ssoSettings.idp.clientId')} required {...inputOf('clientId')} />
              <PasswordInput
                label={t('ssoSettings.idp.clientSecret')}
                description={
                  connection?.protocol === 'oidc' ? t('ssoSettings.idp.clientSecretKeep') : undefined
                }
                required={connection?.protocol !== 'oidc'}
                {...inputOf('clientSecret')}
              />
            </>
          ) : (
            <SamlFields form={form} />
          )}
          {testedNow && <PassedTestResult result={testedNow} />}
          {failure && (
            <Alert color="red" role="alert" title={t('ssoSettings.idp.testFailedTitle')}>
              {translate(failure)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button type="submit" variant="default" loading={test.isPending}>
              {t('ssoSettings.idp.test')}
            </Button>
            <Button
              type="button"
              onClick={updateConnection}
              disabled={!testedNow}
              loading={update.isPending}
              aria-describedby={testedNow ? undefined : 'sso-idp-test-first'}
            >
              {t('ssoSettings.idp.save')}
            </Button>
          </Group>
          {!testedNow && (
            <Text size="sm" c="dimmed" ta="right" id="sso-idp-test-first">
              {t('ssoSettings.idp.testFirst')}
            </Text>
          )}
        </Stack>
      </form>
      {deletion.dialog}
    </SettingsSection>
  );
}

/** The props of a connection field: registered, with its message, and no autofill or spelling marks. */
function connectionInput({ register, formState: { errors } }: UseFormReturn<ConnectionFormValues>) {
  return (name: (typeof CONNECTION_FIELDS)[number]) => ({
    ...register(name),
    error: fieldError(errors[name]),
    autoComplete: 'off',
    spellCheck: false,
  });
}

function SamlFields({ form }: { form: UseFormReturn<ConnectionFormValues> }) {
  const { t } = useTranslation();
  const inputOf = connectionInput(form);
  const monospace = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
  return (
    <>
      <Controller
        control={form.control}
        name="samlSource"
        render={({ field }) => (
          <RadioChoice
            label={t('ssoSettings.idp.samlSource')}
            value={field.value}
            onChange={field.onChange}
            options={[
              { value: 'metadata', label: t('ssoSettings.idp.samlMetadata') },
              { value: 'manual', label: t('ssoSettings.idp.samlManual') },
            ]}
          />
        )}
      />
      {form.watch('samlSource') === 'metadata' ? (
        <Textarea
          label={t('ssoSettings.idp.metadataXml')}
          description={t('ssoSettings.idp.metadataXmlHint')}
          autosize
          minRows={6}
          maxRows={14}
          required
          styles={monospace}
          {...inputOf('metadataXml')}
        />
      ) : (
        <>
          <TextInput label={t('ssoSettings.idp.entryPoint')} type="url" required {...inputOf('entryPoint')} />
          <TextInput label={t('ssoSettings.idp.entityId')} required {...inputOf('entityId')} />
          <Textarea
            label={t('ssoSettings.idp.certificate')}
            description={t('ssoSettings.idp.certificateHint')}
            autosize
            minRows={4}
            maxRows={12}
            required
            styles={monospace}
            {...inputOf('certificate')}
          />
        </>
      )}
    </>
  );
}

/** What the identity provider answered to a test: the endpoints or values the portal found. */
function PassedTestResult({ result }: { result: TestSsoConnectionResponse }) {
  const { t } = useTranslation();
  return (
    <Alert color="green" role="status" title={t('ssoSettings.idp.testOkTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t('ssoSettings.idp.testOkText')}</Text>
        <DetailList items={Object.entries(result.details).map(([label, value]) => ({ label, value }))} />
      </Stack>
    </Alert>
  );
}

function SavedConnection({ connection, onDelete }: { connection: SsoConnection; onDelete: () => void }) {
  const { t } = useTranslation();
  const items =
    connection.protocol === 'oidc'
      ? [
          { label: t('ssoSettings.idp.issuer'), value: connection.issuer },
          { label: t('ssoSettings.idp.clientId'), value: connection.clientId },
        ]
      : [
          { label: t('ssoSettings.idp.entryPoint'), value: connection.entryPoint },
          { label: t('ssoSettings.idp.entityId'), value: connection.entityId },
          { label: t('ssoSettings.idp.fingerprint'), value: connection.certificateFingerprint },
          {
            label: t('ssoSettings.idp.expires'),
            code: false,
            value: connection.certificateExpiresAt ? (
              <>
                {formatDate(connection.certificateExpiresAt)}{' '}
                {isCertificateExpired(connection) && (
                  <Badge color="red" variant="light">
                    {t('ssoSettings.idp.expired')}
                  </Badge>
                )}
              </>
            ) : (
              t('ssoSettings.idp.expiryUnknown')
            ),
          },
        ];
  return (
    <SettingsCard labelledBy="sso-idp-current">
      <Stack gap="sm">
        <Group gap="xs">
          <Text fw={600} id="sso-idp-current">
            {t('ssoSettings.idp.current')}
          </Text>
          <Badge variant="light">{t(PROTOCOL_LABEL[connection.protocol])}</Badge>
        </Group>
        <DetailList items={items} />
        <Group justify="flex-end">
          <Button variant="outline" color="red" onClick={onDelete}>
            {t('ssoSettings.idp.remove')}
          </Button>
        </Group>
      </Stack>
    </SettingsCard>
  );
}
