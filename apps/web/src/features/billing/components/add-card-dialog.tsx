import { Alert, Button, Checkbox, Group, Modal, Stack } from '@mantine/core';
import { MODAL_WIDTH_PX, type AddPaymentProfileResponse } from '@portal/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { translate, useTranslation } from '../../../lib/i18n';
import { useAddPaymentProfile } from '../api/add-payment-profile';
import { paymentFailureText } from '../payment-page';
import { CardEntry, useCardForm } from './card-entry';
import { useOneSubmission } from './card-payment';

/**
 * Adds a card (§2 /manage-payment): the provider's card form tokenises it in the browser and the
 * token is saved, as the default card unless unticked (§3: setAsDefault, default true).
 */
export function AddCardDialog({
  opened,
  onClose,
  onAdded,
}: {
  opened: boolean;
  onClose: () => void;
  onAdded: (card: AddPaymentProfileResponse) => void;
}) {
  const { t } = useTranslation();
  const add = useAddPaymentProfile();
  const cardForm = useCardForm();
  const [setAsDefault, setSetAsDefault] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const { submitting, run } = useOneSubmission();

  const save = async () => {
    const card = cardForm.current();
    if (!card || !(await card.validate())) return false;
    const token = await card.tokenize();
    if (!token) return false;
    try {
      onAdded(await add.mutateAsync({ token, setAsDefault }));
    } catch (error) {
      setFailure(paymentFailureText(error));
    }
    return false;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    void run(save);
  };
  const close = () => {
    if (submitting) return;
    setFailure(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} size={MODAL_WIDTH_PX} title={t('managePayment.add.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <CardEntry ref={cardForm.ref} disabled={submitting} />
          <Checkbox
            label={t('managePayment.add.setAsDefault')}
            checked={setAsDefault}
            disabled={submitting}
            onChange={(event) => setSetAsDefault(event.currentTarget.checked)}
          />
          {failure && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
              {translate(failure)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={submitting}>
              {t('managePayment.add.cancel')}
            </Button>
            <Button type="submit" loading={submitting} disabled={!cardForm.ready}>
              {t('managePayment.add.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
