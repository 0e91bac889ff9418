import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { TotpCodeFormSchema } from '@portal/contracts';
import { IconCheck, IconCopy, IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-error';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { useConfirmTwoFactor } from '../api/confirm-two-factor';
import { useEnableTwoFactor, type TwoFactorSecret } from '../api/enable-two-factor';
import { backupCodesText, groupedKey, setupKeyOf } from '../enrolment';
import { usePasswordCheck } from './password-check';

export interface TwoFactorEnrolmentProps {
  /** Members with a password confirm it first; a member without one (Google only) starts at once. */
  hasPassword: boolean;
  /** The signed-in address, named in the backup codes file. */
  account: string;
  /** After the backup codes were shown: the caller reloads the account. */
  onDone: () => void;
  onCancel?: () => void;
}

/**
 * Beyond the spec: turning two-factor authentication on. The password, then the QR code and the key
 * to type instead, a first code from the app that turns it on, and the 10 backup codes, shown this
 * once with copy and download. Loaded on use (it brings the QR code's library).
 */
export default function TwoFactorEnrolment({
  hasPassword,
  account,
  onDone,
  onCancel,
}: TwoFactorEnrolmentProps) {
  const [secret, setSecret] = useState<TwoFactorSecret | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  if (!secret) return <PasswordStep hasPassword={hasPassword} onStarted={setSecret} onCancel={onCancel} />;
  if (!confirmed)
    return <ScanStep secret={secret} onConfirmed={() => setConfirmed(true)} onCancel={onCancel} />;
  return <BackupCodesStep codes={secret.backupCodes} account={account} onDone={onDone} />;
}

function PasswordStep({
  hasPassword,
  onStarted,
  onCancel,
}: {
  hasPassword: boolean;
  onStarted: (secret: TwoFactorSecret) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const enable = useEnableTwoFactor();
  const password = usePasswordCheck(hasPassword);

  const start = (event: FormEvent) => {
    event.preventDefault();
    const body = password.body();
    if (body) enable.mutate(body, { onSuccess: onStarted, onError: password.refused });
  };

  return (
    <form onSubmit={start} noValidate>
      <Stack gap="md" maw={480}>
        <Text>{t(hasPassword ? 'twoFactor.enrol.passwordIntro' : 'twoFactor.enrol.startIntro')}</Text>
        <StatusAlert kind="fail" message={password.failure} />
        {password.field}
        <StepActions submit="twoFactor.enrol.continue" pending={enable.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

function ScanStep({
  secret,
  onConfirmed,
  onCancel,
}: {
  secret: TwoFactorSecret;
  onConfirmed: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const confirm = useConfirmTwoFactor();
  const [failure, setFailure] = useState<string | null>(null);
  const key = setupKeyOf(secret.totpURI);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(TotpCodeFormSchema), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(({ code }) => {
    setFailure(null);
    confirm.mutate(code, {
      onSuccess: onConfirmed,
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'INVALID_CODE')
          setError('code', { message: error.message }, { shouldFocus: true });
        else setFailure(submitErrorText(error));
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={560}>
        <Text>{t('twoFactor.enrol.scan')}</Text>
        <Group align="flex-start" gap="lg" wrap="wrap">
          <Paper withBorder p="sm" radius="md" bg="white">
            <QRCodeSVG
              value={secret.totpURI}
              size={176}
              marginSize={0}
              title={t('twoFactor.enrol.qrTitle')}
            />
          </Paper>
          <Stack gap={6} miw={0} style={{ flex: '1 1 220px' }}>
            <Text size="sm" fw={500} id="two-factor-key-label">
              {t('twoFactor.enrol.key')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('twoFactor.enrol.keyHint')}
            </Text>
            <Code
              block
              aria-labelledby="two-factor-key-label"
              data-testid="two-factor-key"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >
              {groupedKey(key)}
            </Code>
            <CopyTextButton value={key} label="twoFactor.enrol.copyKey" size="xs" />
          </Stack>
        </Group>
        <StatusAlert kind="fail" message={failure} />
        <TextInput
          label={t('twoFactor.enrol.code')}
          description={t('twoFactor.enrol.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maw={240}
          required
          {...register('code')}
          error={fieldError(errors.code)}
        />
        <StepActions submit="twoFactor.enrol.turnOn" pending={confirm.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

function BackupCodesStep({
  codes,
  account,
  onDone,
}: {
  codes: string[];
  account: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const text = backupCodesText(codes, account, t('app.name'));
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'backup-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack gap="md" maw={560}>
      <Alert
        color="green"
        icon={<IconShieldCheck size={20} aria-hidden />}
        title={t('twoFactor.enrol.onTitle')}
      >
        {t('twoFactor.enrol.onText')}
      </Alert>
      <Title order={3}>{t('twoFactor.codes.title')}</Title>
      <Text>{t('twoFactor.codes.intro')}</Text>
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={2} spacing="xs" component="ul" aria-label={t('twoFactor.codes.title')} m={0} p={0}>
          {codes.map((code) => (
            <Text component="li" key={code} ff="monospace" style={{ listStyle: 'none' }}>
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group>
        <CopyTextButton value={codes.join('\n')} label="twoFactor.codes.copy" />
        <Button variant="light" leftSection={<IconDownload size={18} aria-hidden />} onClick={download}>
          {t('twoFactor.codes.download')}
        </Button>
      </Group>
      <Group>
        <Button onClick={onDone}>{t('twoFactor.codes.done')}</Button>
      </Group>
    </Stack>
  );
}

/** Copies a text, and says so on the button for a moment. */
function CopyTextButton({ value, label, size }: { value: string; label: TranslationKey; size?: 'xs' }) {
  const { t } = useTranslation();
  const iconSize = size === 'xs' ? 16 : 18;
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          variant="light"
          size={size}
          w="fit-content"
          leftSection={
            copied ? <IconCheck size={iconSize} aria-hidden /> : <IconCopy size={iconSize} aria-hidden />
          }
          onClick={copy}
        >
          {t(copied ? 'twoFactor.copied' : label)}
        </Button>
      )}
    </CopyButton>
  );
}

/** A step's submit button, and Cancel where the enrolment can be left (not when it is required). */
function StepActions({
  submit,
  pending,
  onCancel,
}: {
  submit: TranslationKey;
  pending: boolean;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group>
      <Button type="submit" loading={pending}>
        {t(submit)}
      </Button>
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {t('twoFactor.cancel')}
        </Button>
      )}
    </Group>
  );
}
