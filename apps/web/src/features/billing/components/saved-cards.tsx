import { ActionIcon, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AddPaymentProfileResponse, PaymentProfile } from '@portal/contracts';
import { IconCreditCard, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Loading } from '../../../components/page-loader';
import { useConfirmedChange } from '../../../components/use-confirmed-change';
import { reloadAccount } from '../../../lib/account';
import { errorText } from '../../../lib/api-error';
import { useTranslation } from '../../../lib/i18n';
import { showToast, toastError } from '../../../lib/toasts';
import { usePaymentProfiles } from '../api/list-payment-profiles';
import { useRemovePaymentProfile } from '../api/remove-payment-profile';
import { useSetDefaultPaymentProfile } from '../api/set-default-payment-profile';
import { describeCard } from '../payment-profiles';
import { AddCardDialog } from './add-card-dialog';
import { LoadError } from './load-error';
import { SuccessDialog } from './success-dialog';

/** How the page names a card in its labels and messages: 'VISA ending in 4242'. */
function useCardName() {
  const { t } = useTranslation();
  return (profile: PaymentProfile) => {
    const { brand, last4 } = describeCard(profile);
    return t('payment.source.savedCard', { brand, last4 });
  };
}

function SavedCard({
  profile,
  settingDefault,
  onSetDefault,
  onRemove,
}: {
  profile: PaymentProfile;
  settingDefault: boolean;
  onSetDefault: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const cardName = useCardName()(profile);
  const { brand, last4, expiry } = describeCard(profile);
  return (
    <Card withBorder padding="lg" role="listitem" aria-label={cardName}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconCreditCard size={22} aria-hidden />
            <Text fw={700}>{brand}</Text>
          </Group>
          {profile.defaultPayment && <Badge variant="light">{t('managePayment.cards.default')}</Badge>}
        </Group>
        <Text size="lg" ff="monospace" aria-hidden>
          •••• {last4}
        </Text>
        <Text size="sm" c="dimmed">
          {t('managePayment.cards.expires', { expiry })}
        </Text>
        <Group justify="space-between" wrap="nowrap" mih={30}>
          {profile.defaultPayment ? (
            <span />
          ) : (
            <Button
              variant="subtle"
              size="compact-sm"
              loading={settingDefault}
              onClick={onSetDefault}
              aria-label={t('managePayment.cards.setDefaultLabel', { card: cardName })}
            >
              {t('managePayment.cards.setDefault')}
            </Button>
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={onRemove}
            aria-label={t('managePayment.cards.removeLabel', { card: cardName })}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The organisation's saved cards (§2 /manage-payment): brand, last 4, expiry and the default badge;
 * add one, make one the default, remove one after asking (an error toast when it fails). A card
 * added to an inactive account pays what is due: the reactivation dialog says the account and its
 * applications come back within 24 hours.
 */
export function SavedCards() {
  const { t } = useTranslation();
  const cardName = useCardName();
  const profiles = usePaymentProfiles();
  const setDefault = useSetDefaultPaymentProfile();
  const remove = useRemovePaymentProfile();
  const [adding, setAdding] = useState(false);
  const [reactivated, setReactivated] = useState(false);

  const removal = useConfirmedChange({
    mutation: remove,
    variables: (profile: PaymentProfile) => profile.id,
    title: t('managePayment.remove.title'),
    question: (profile) => t('managePayment.remove.question', { card: cardName(profile) }),
    color: 'red',
    confirmLabel: t('managePayment.remove.confirm'),
    cancelLabel: t('managePayment.remove.cancel'),
    onSuccess: (_, profile) =>
      showToast({ color: 'green', message: t('managePayment.remove.done', { card: cardName(profile) }) }),
    onError: (error) => toastError(errorText(error)),
  });

  const makeDefault = (profile: PaymentProfile) =>
    setDefault.mutate(profile.id, {
      onSuccess: () =>
        showToast({
          color: 'green',
          message: t('managePayment.cards.defaultChanged', { card: cardName(profile) }),
        }),
      onError: (error) => toastError(errorText(error)),
    });

  const onAdded = (added: AddPaymentProfileResponse) => {
    setAdding(false);
    showToast({ color: 'green', message: t('managePayment.add.done', { card: cardName(added) }) });
    // The account now has a card, and may be active again.
    void reloadAccount();
    if (added.accountReactivated) setReactivated(true);
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="saved-cards-title">
      <Group justify="space-between">
        <Title order={2} size="h3" id="saved-cards-title">
          {t('managePayment.cards.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('managePayment.cards.add')}
        </Button>
      </Group>
      {profiles.isPending ? (
        <Loading />
      ) : profiles.isError ? (
        <LoadError title={t('managePayment.cards.loadError')} error={profiles.error} />
      ) : profiles.data.length === 0 ? (
        <Text c="dimmed">{t('managePayment.cards.empty')}</Text>
      ) : (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="md"
          role="list"
          aria-labelledby="saved-cards-title"
        >
          {profiles.data.map((profile) => (
            <SavedCard
              key={profile.id}
              profile={profile}
              settingDefault={setDefault.isPending && setDefault.variables === profile.id}
              onSetDefault={() => makeDefault(profile)}
              onRemove={() => removal.ask(profile)}
            />
          ))}
        </SimpleGrid>
      )}
      {removal.dialog}
      <AddCardDialog opened={adding} onClose={() => setAdding(false)} onAdded={onAdded} />
      <SuccessDialog
        opened={reactivated}
        onClose={() => setReactivated(false)}
        title={t('managePayment.reactivated.title')}
        text={t('managePayment.reactivated.text')}
        closeLabel={t('managePayment.reactivated.close')}
      />
    </Stack>
  );
}
