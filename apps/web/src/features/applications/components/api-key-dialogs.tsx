import { Alert, Button, Code, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import {
  API_KEY_OVERLAPS,
  MAX_WORKING_API_KEYS,
  MODAL_WIDTH_PX,
  type ApiKey,
  type ApiKeyOverlap,
  type Application,
  type CreatedApiKey,
} from '@portal/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import { CopyAction } from '../../../components/copy-action';
import { errorText } from '../../../lib/api-error';
import { Trans, useTranslation } from '../../../lib/i18n';
import { showToast } from '../../../lib/toasts';
import { useRevokeApiKey, useRotateApiKey } from '../api/api-keys';
import { dateAndTime, OVERLAP_LABELS, shownPrefix } from '../api-key-rules';
import { ModalActions } from './application-modal';

/** Above the keys' list modal, which stays open beneath, and below tooltips and toasts. */
const OVER_LIST_Z_INDEX = 250;

function DialogOverList({
  opened,
  title,
  onClose,
  children,
  closeOnClickOutside,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  closeOnClickOutside?: boolean;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={MODAL_WIDTH_PX}
      zIndex={OVER_LIST_Z_INDEX}
      closeOnClickOutside={closeOnClickOutside}
    >
      {children}
    </Modal>
  );
}

/** What the one-time dialog shows: the new key, and the key a rotation replaced. */
export interface NewApiKey {
  created: CreatedApiKey;
  rotated?: ApiKey;
}

/**
 * The new key in full, the only time it is shown: the region keeps its hash alone. A click beside
 * the dialog does not close it, so the key is not lost by accident.
 */
export function NewKeyDialog({ shown, onClose }: { shown: NewApiKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rotated = shown?.rotated;
  return (
    <DialogOverList
      opened={shown !== null}
      title={t('apiKeys.secret.title')}
      onClose={onClose}
      closeOnClickOutside={false}
    >
      {shown && (
        <Stack>
          <Text size="sm">
            <Trans
              i18nKey="apiKeys.secret.created"
              values={{ name: shown.created.name }}
              components={{ strong: <strong /> }}
            />
            {rotated &&
              ` ${
                rotated.status === 'expiring' && rotated.expiresAt
                  ? t('apiKeys.secret.rotatedUntil', {
                      name: rotated.name,
                      when: dateAndTime(rotated.expiresAt),
                    })
                  : t('apiKeys.secret.rotatedNow', { name: rotated.name })
              }`}
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code style={{ wordBreak: 'break-all', flex: 1 }}>{shown.created.secret}</Code>
            <CopyAction value={shown.created.secret} label={t('apiKeys.secret.copy')} />
          </Group>
          <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} role="status">
            {t('apiKeys.secret.warning')}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {t('apiKeys.secret.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </DialogOverList>
  );
}

const isOverlap = (value: string): value is ApiKeyOverlap =>
  API_KEY_OVERLAPS.some((overlap) => overlap === value);

/** Rotate: a new key now, the old one stopping after the overlap chosen. */
export function RotateKeyForm({
  app,
  apiKey,
  atLimit,
  onRotated,
  onClose,
}: {
  app: Application;
  apiKey: ApiKey;
  /** MAX_WORKING_API_KEYS keys work: an overlap would need a sixth, so only "now" fits. */
  atLimit: boolean;
  onRotated: (rotation: Required<NewApiKey>) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rotate = useRotateApiKey(app.applicationId);
  const [overlap, setOverlap] = useState<ApiKeyOverlap>(atLimit ? 'now' : '24h');
  const [name, setName] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const newName = name.trim();
    rotate.mutate(
      { keyId: apiKey.id, overlap, ...(newName ? { name: newName } : {}) },
      { onSuccess: (rotation) => onRotated(rotation) },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          <Trans
            i18nKey="apiKeys.rotate.text"
            values={{ name: apiKey.name, prefix: shownPrefix(apiKey.prefix) }}
            components={{ strong: <strong /> }}
          />
        </Text>
        <Radio.Group
          label={t('apiKeys.rotate.overlap')}
          description={atLimit ? t('apiKeys.rotate.atLimit', { max: MAX_WORKING_API_KEYS }) : undefined}
          value={overlap}
          onChange={(value) => isOverlap(value) && setOverlap(value)}
        >
          <Group mt="xs">
            {API_KEY_OVERLAPS.map((value) => (
              <Radio
                key={value}
                value={value}
                label={t(OVERLAP_LABELS[value])}
                disabled={atLimit && value !== 'now'}
              />
            ))}
          </Group>
        </Radio.Group>
        <TextInput
          label={t('apiKeys.rotate.newName')}
          description={t('apiKeys.rotate.newNameHint')}
          placeholder={apiKey.name}
          value={name}
          maxLength={64}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <ModalActions
          error={rotate.error ? errorText(rotate.error) : undefined}
          submitLabel={t('apiKeys.rotate.submit')}
          canSubmit
          submitting={rotate.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}

/** A dialog about one key over the list, open while there is one; keyed so each key opens afresh. */
export function KeyDialog({
  apiKey,
  title,
  onClose,
  children,
}: {
  apiKey: ApiKey | null;
  title: string;
  onClose: () => void;
  children: (apiKey: ApiKey) => ReactNode;
}) {
  return (
    <DialogOverList opened={apiKey !== null} title={title} onClose={onClose}>
      {apiKey && <Fragment key={apiKey.id}>{children(apiKey)}</Fragment>}
    </DialogOverList>
  );
}

/** Revoke, confirmed: the region refuses the key at once. */
export function RevokeKeyForm({
  app,
  apiKey,
  onClose,
}: {
  app: Application;
  apiKey: ApiKey;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey(app.applicationId);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        showToast({ color: 'green', message: t('apiKeys.revoked', { name: apiKey.name }) });
        onClose();
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          <Trans
            i18nKey="apiKeys.revoke.text"
            values={{ name: apiKey.name, prefix: shownPrefix(apiKey.prefix) }}
            components={{ strong: <strong /> }}
          />
        </Text>
        <ModalActions
          error={revoke.error ? errorText(revoke.error) : undefined}
          submitLabel={t('apiKeys.revoke.submit')}
          canSubmit
          submitting={revoke.isPending}
          color="red"
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
