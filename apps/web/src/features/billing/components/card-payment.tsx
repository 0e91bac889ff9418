import { Alert, Anchor, Badge, Button, Card, Group, Radio, Stack, Text } from '@mantine/core';
import type { PaymentProfile } from '@portal/contracts';
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../../components/page-loader';
import { translate, useTranslation } from '../../../lib/i18n';
import { usePaymentProfiles } from '../api/list-payment-profiles';
import { paymentFailureOf, paymentFailureText } from '../payment-page';
import { describeCard, initialCardSource, type CardSource } from '../payment-profiles';
import { CardEntry, useCardForm } from './card-entry';

/** Which card a charge is made with, as the payment requests take it. */
export type PaymentSource = { token: string } | { paymentProfileId: string };

interface CardPaymentOptions<R> {
  /** Checks the page's own fields (the top-up amount): true when they can be sent. */
  validate: () => Promise<boolean>;
  charge: (source: PaymentSource) => Promise<R>;
  onPaid: (result: R) => void;
  /** A failure that is neither the card's nor of unknown outcome; without it, its text is shown. */
  onOtherFailure?: (error: unknown) => void;
}

interface PaymentFailureShown {
  text: string;
  /** Whether the card was charged is not known yet: no second payment is offered. */
  unconfirmed: boolean;
}

/**
 * One submission at a time, whatever the clicks: a click while one runs does nothing, and the
 * button shows it as busy. `work` answers whether the page moves on (a payment made), in which case
 * the form stays busy until it has; otherwise it takes clicks again.
 */
export function useOneSubmission() {
  const inFlight = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  const run = async (work: () => Promise<boolean>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    const movingOn = await work().catch(() => false);
    if (!movingOn) {
      inFlight.current = false;
      setSubmitting(false);
    }
  };
  return { submitting, run };
}

/**
 * A card payment: the saved card or the new one chosen, the checks, the token, the charge. Nothing
 * is sent while a field is refused, and one payment at a time: the pay button is disabled from the
 * first click until the charge has failed (after a success the page leaves).
 */
export function useCardPayment<R>({ validate, charge, onPaid, onOtherFailure }: CardPaymentOptions<R>) {
  const profiles = usePaymentProfiles();
  const [chosen, setChosen] = useState<CardSource | null>(null);
  const source = chosen ?? initialCardSource(profiles.data);
  const cardForm = useCardForm();
  const { submitting, run } = useOneSubmission();
  const [failure, setFailure] = useState<PaymentFailureShown | null>(null);

  const pay = async (): Promise<boolean> => {
    const fieldsValid = await validate();
    const card = source.kind === 'new' ? cardForm.current() : null;
    const cardValid = source.kind === 'saved' || ((await card?.validate()) ?? false);
    if (!fieldsValid || !cardValid) return false;
    let payment: PaymentSource;
    if (source.kind === 'saved') payment = { paymentProfileId: source.profileId };
    else {
      const token = await card?.tokenize();
      if (!token) return false;
      payment = { token };
    }
    try {
      onPaid(await charge(payment));
      return true;
    } catch (error) {
      const kind = paymentFailureOf(error);
      if (kind === 'other' && onOtherFailure) {
        // The page moves on (back to billing), so the form stays busy.
        onOtherFailure(error);
        return true;
      }
      if (kind === 'unconfirmed') setFailure({ text: 'errors.paymentNotConfirmed', unconfirmed: true });
      else {
        const text = paymentFailureText(error);
        setFailure(text ? { text, unconfirmed: false } : null);
      }
      return false;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (failure?.unconfirmed) return;
    setFailure(null);
    void run(pay);
  };

  return {
    profiles,
    source,
    setSource: setChosen,
    cardForm,
    submit,
    submitting,
    failure,
    /** Whether the pay button takes a click: not while paying, nor before the card can be entered. */
    canPay:
      !submitting &&
      !failure?.unconfirmed &&
      !profiles.isPending &&
      (source.kind === 'saved' || cardForm.ready),
  };
}

function SavedCardLabel({ profile }: { profile: PaymentProfile }) {
  const { t } = useTranslation();
  const card = describeCard(profile);
  return (
    <Group gap="xs" component="span">
      <span>{t('payment.source.savedCard', { brand: card.brand, last4: card.last4 })}</span>
      {profile.defaultPayment && (
        <Badge size="sm" variant="light" component="span">
          {t('managePayment.cards.default')}
        </Badge>
      )}
    </Group>
  );
}

export type CardPayment = ReturnType<typeof useCardPayment<unknown>>;

/**
 * The card that pays: the saved cards (the default chosen first) and a new one when there are saved
 * cards, else the card form.
 */
export function CardSourcePicker({ payment }: { payment: CardPayment }) {
  const { t } = useTranslation();
  const { profiles, source, setSource, cardForm, submitting } = payment;
  const saved = profiles.data ?? [];
  return (
    <Card withBorder padding="lg">
      {profiles.isPending ? (
        <Loading />
      ) : (
        <Stack gap="md">
          {profiles.isError && (
            <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} role="status">
              {t('payment.source.loadError')}
            </Alert>
          )}
          {saved.length > 0 && (
            <Radio.Group
              label={t('payment.source.label')}
              value={source.kind === 'saved' ? source.profileId : 'new'}
              onChange={(value) =>
                setSource(value === 'new' ? { kind: 'new' } : { kind: 'saved', profileId: value })
              }
            >
              <Stack gap="sm" mt="xs">
                {saved.map((profile) => (
                  <Radio
                    key={profile.id}
                    value={profile.id}
                    disabled={submitting}
                    label={<SavedCardLabel profile={profile} />}
                    description={t('payment.source.expires', { expiry: describeCard(profile).expiry })}
                  />
                ))}
                <Radio value="new" disabled={submitting} label={t('payment.source.newCard')} />
              </Stack>
            </Radio.Group>
          )}
          {source.kind === 'new' && <CardEntry ref={cardForm.ref} disabled={submitting} />}
        </Stack>
      )}
    </Card>
  );
}

/**
 * Why the last attempt did not go through (when its outcome is not known, where to look before
 * paying again), and the pay button, disabled while a payment runs or cannot be made.
 */
export function PaymentSubmit({
  sub,
  payment,
  label,
  ready = true,
}: {
  sub: string;
  payment: CardPayment;
  label: string;
  /** Whether what the payment needs besides the card is known (the order summary). */
  ready?: boolean;
}) {
  const { t } = useTranslation();
  const { failure } = payment;
  return (
    <>
      {failure && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          <Text size="sm">{translate(failure.text)}</Text>
          {failure.unconfirmed && (
            <Anchor component={Link} to={`/billing/${sub}`} size="sm">
              {t('payment.goToBilling')}
            </Anchor>
          )}
        </Alert>
      )}
      <Button
        type="submit"
        size="md"
        fullWidth
        loading={payment.submitting}
        disabled={!payment.canPay || !ready}
      >
        {label}
      </Button>
    </>
  );
}
