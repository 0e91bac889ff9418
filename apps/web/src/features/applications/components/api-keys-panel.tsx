import {
  Badge,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
  type MantineColor,
} from '@mantine/core';
import { MAX_WORKING_API_KEYS, type ApiKey, type ApiKeyStatus, type Application } from '@portal/contracts';
import { IconKey, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Loading } from '../../../components/page-loader';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { AlertBox, StatusAlert } from '../../../components/status-alert';
import { errorText } from '../../../lib/api-error';
import { translate, useTranslation } from '../../../lib/i18n';
import { useApiKeys, useCreateApiKey } from '../api/api-keys';
import {
  apiKeyStatusText,
  canCreateApiKey,
  dateAndTime,
  defaultKeyName,
  isWorking,
  shownPrefix,
} from '../api-key-rules';
import { KeyDialog, NewKeyDialog, RevokeKeyForm, RotateKeyForm, type NewApiKey } from './api-key-dialogs';

const STATUS_COLORS: Record<ApiKeyStatus, MantineColor> = {
  active: 'green',
  expiring: 'orange',
  expired: 'gray',
  revoked: 'red',
};

const NO_KEYS: ApiKey[] = [];

function CreateKeyForm({
  app,
  keys,
  onCreated,
}: {
  app: Application;
  keys: readonly ApiKey[];
  onCreated: (created: NewApiKey) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateApiKey(app.applicationId);
  // Empty until typed in: the offered name follows the list as keys come and go.
  const [typed, setTyped] = useState<string | null>(null);
  const name = typed ?? defaultKeyName(keys);
  const room = canCreateApiKey(keys);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!room || name.trim() === '') return;
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (created) => {
          setTyped(null);
          onCreated({ created });
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('apiKeys.create.name')}
            value={name}
            maxLength={64}
            disabled={!room}
            onChange={(event) => setTyped(event.currentTarget.value)}
            style={{ flex: '1 1 12rem' }}
          />
          <Button
            type="submit"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!room || name.trim() === ''}
            loading={create.isPending}
          >
            {t('apiKeys.create.submit')}
          </Button>
        </Group>
        {!room && (
          <Text size="sm" c="dimmed">
            {t('apiKeys.create.limit', { max: MAX_WORKING_API_KEYS })}
          </Text>
        )}
        <StatusAlert kind="fail" message={create.error ? errorText(create.error) : undefined} />
      </Stack>
    </form>
  );
}

function KeyRow({
  apiKey,
  onRotate,
  onRevoke,
}: {
  apiKey: ApiKey;
  onRotate: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
}) {
  const { t } = useTranslation();
  const status = apiKeyStatusText(apiKey);
  return (
    <Table.Tr>
      <LabelledCell>
        <Text fw={600} size="sm">
          {apiKey.name}
        </Text>
      </LabelledCell>
      <LabelledCell label={t('apiKeys.column.prefix')}>
        <Text ff="monospace" size="sm">
          {shownPrefix(apiKey.prefix)}
        </Text>
      </LabelledCell>
      <LabelledCell label={t('apiKeys.column.created')}>
        <time dateTime={apiKey.createdAt}>{dateAndTime(apiKey.createdAt)}</time>
      </LabelledCell>
      <LabelledCell label={t('apiKeys.column.lastUsed')}>
        {apiKey.lastUsedAt ? (
          <time dateTime={apiKey.lastUsedAt}>{dateAndTime(apiKey.lastUsedAt)}</time>
        ) : (
          t('apiKeys.lastUsed.never')
        )}
      </LabelledCell>
      <LabelledCell label={t('apiKeys.column.status')}>
        <Badge color={STATUS_COLORS[apiKey.status]} variant="light" tt="none">
          {t(status.key, status.values)}
        </Badge>
      </LabelledCell>
      <LabelledCell>
        {isWorking(apiKey) && (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconRefresh size={14} aria-hidden />}
              aria-label={t('apiKeys.rotate.label', { name: apiKey.name })}
              onClick={() => onRotate(apiKey)}
            >
              {t('apiKeys.rotate')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              c="red"
              aria-label={t('apiKeys.revoke.label', { name: apiKey.name })}
              onClick={() => onRevoke(apiKey)}
            >
              {t('apiKeys.revoke')}
            </Button>
          </Group>
        )}
      </LabelledCell>
    </Table.Tr>
  );
}

/**
 * The API keys of an application (decision 043): the keys its region keeps, a new key, and per key
 * that still works Rotate (with an overlap) and Revoke. A new key's secret shows once, in a dialog
 * over the list.
 */
export function ApiKeysPanel({ app }: { app: Application }) {
  const { t } = useTranslation();
  const list = useApiKeys(app.applicationId);
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [shown, setShown] = useState<NewApiKey | null>(null);
  const keys = list.data?.results ?? NO_KEYS;

  return (
    <Stack>
      <Text size="sm">{t('apiKeys.intro', { name: app.name, max: MAX_WORKING_API_KEYS })}</Text>

      {list.isPending && <Loading />}
      {list.isError && (
        <AlertBox kind="fail">
          <p>{t('apiKeys.loadError')}</p>
          <p>{translate(errorText(list.error))}</p>
          <Button variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('apiKeys.retry')}
          </Button>
        </AlertBox>
      )}

      {list.isSuccess && (
        <>
          <CreateKeyForm app={app} keys={keys} onCreated={setShown} />
          {keys.length === 0 ? (
            <Group gap="xs" c="dimmed">
              <IconKey size={16} aria-hidden />
              <Text size="sm">{t('apiKeys.empty')}</Text>
            </Group>
          ) : (
            <StackingTable
              aria-label={t('apiKeys.table', { name: app.name })}
              head={
                <>
                  <Table.Th>{t('apiKeys.column.name')}</Table.Th>
                  <Table.Th>{t('apiKeys.column.prefix')}</Table.Th>
                  <Table.Th>{t('apiKeys.column.created')}</Table.Th>
                  <Table.Th>{t('apiKeys.column.lastUsed')}</Table.Th>
                  <Table.Th>{t('apiKeys.column.status')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('apiKeys.column.actions')}</VisuallyHidden>
                  </Table.Th>
                </>
              }
            >
              {keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} onRotate={setRotating} onRevoke={setRevoking} />
              ))}
            </StackingTable>
          )}
        </>
      )}

      <KeyDialog apiKey={rotating} title={t('apiKeys.rotate.title')} onClose={() => setRotating(null)}>
        {(apiKey) => (
          <RotateKeyForm
            app={app}
            apiKey={apiKey}
            atLimit={!canCreateApiKey(keys)}
            onClose={() => setRotating(null)}
            onRotated={(rotation) => {
              setRotating(null);
              setShown(rotation);
            }}
          />
        )}
      </KeyDialog>
      <KeyDialog apiKey={revoking} title={t('apiKeys.revoke.title')} onClose={() => setRevoking(null)}>
        {(apiKey) => <RevokeKeyForm app={app} apiKey={apiKey} onClose={() => setRevoking(null)} />}
      </KeyDialog>
      <NewKeyDialog shown={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
