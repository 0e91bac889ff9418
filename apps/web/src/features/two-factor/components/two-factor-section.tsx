import { Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { MODAL_WIDTH_PX } from '@portal/contracts';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Loading } from '../../../components/page-loader';
import { StatusAlert } from '../../../components/status-alert';
import { reloadAccount, useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { showToast } from '../../../lib/toasts';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { usePasswordCheck } from './password-check';

const TwoFactorEnrolment = lazy(() => import('./two-factor-enrolment'));

/**
 * Beyond the spec: the Security tab of /edit-profile. Whether two-factor authentication is on, turning
 * it on (the enrolment, loaded when asked for) and off with the password.
 */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);

  const finishEnrolment = () => {
    void reloadAccount().then(() => {
      setEnrolling(false);
      showToast({ color: 'green', message: t('twoFactor.turnedOn') });
    });
  };

  return (
    <Stack gap="md" maw={640}>
      <Group gap="sm">
        <Title order={2} size="h3">
          {t('twoFactor.title')}
        </Title>
        {/* While enrolling the steps say where it stands. */}
        {!enrolling && (
          <Badge color={account.twoFactorEnabled ? 'green' : 'gray'} variant="light">
            {t(account.twoFactorEnabled ? 'twoFactor.status.on' : 'twoFactor.status.off')}
          </Badge>
        )}
      </Group>
      <Text>{t('twoFactor.intro')}</Text>
      {account.requireTwoFactor && <StatusAlert kind="warning" message="twoFactor.requiredByOrganization" />}
      {account.twoFactorEnabled ? (
        <>
          <Text size="sm" c="dimmed">
            {t('twoFactor.onText')}
          </Text>
          <Group>
            <Button color="red" variant="light" onClick={() => setDisabling(true)}>
              {t('twoFactor.turnOff')}
            </Button>
          </Group>
        </>
      ) : enrolling ? (
        <Suspense fallback={<Loading />}>
          <TwoFactorEnrolment
            hasPassword={account.hasPassword}
            account={account.userEmail}
            onDone={finishEnrolment}
            onCancel={() => setEnrolling(false)}
          />
        </Suspense>
      ) : (
        <Group>
          <Button onClick={() => setEnrolling(true)}>{t('twoFactor.turnOn')}</Button>
        </Group>
      )}
      <TurnOffDialog
        opened={disabling}
        hasPassword={account.hasPassword}
        required={account.requireTwoFactor}
        onClose={() => setDisabling(false)}
      />
    </Stack>
  );
}

function TurnOffDialog({
  opened,
  hasPassword,
  required,
  onClose,
}: {
  opened: boolean;
  hasPassword: boolean;
  required: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const password = usePasswordCheck(hasPassword, { autoFocus: true });
  const close = () => {
    password.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = password.body();
    if (!body) return;
    disable.mutate(body, {
      onSuccess: () => {
        close();
        showToast({ color: 'green', message: t('twoFactor.turnedOff') });
      },
      onError: password.refused,
    });
  };

  return (
    <Modal opened={opened} onClose={close} size={MODAL_WIDTH_PX} title={t('twoFactor.turnOffTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>{t(required ? 'twoFactor.turnOffRequiredText' : 'twoFactor.turnOffText')}</Text>
          <StatusAlert kind="fail" message={password.failure} />
          {password.field}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('twoFactor.cancel')}
            </Button>
            <Button type="submit" color="red" loading={disable.isPending}>
              {t('twoFactor.turnOff')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
