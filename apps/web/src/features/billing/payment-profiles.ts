import { CARD_TYPE_LABELS, type PaymentProfile } from '@portal/contracts';

/** Which card pays: a saved one, or one entered in the card form. */
export type CardSource = { kind: 'saved'; profileId: string } | { kind: 'new' };

/**
 * The choice the payment page starts with: the default card when there is one, otherwise the card
 * form (a card that is not the default is never chosen for the user; decision 018).
 */
export function initialCardSource(profiles: readonly PaymentProfile[] | undefined): CardSource {
  const preferred = profiles?.find((profile) => profile.defaultPayment);
  return preferred ? { kind: 'saved', profileId: preferred.id } : { kind: 'new' };
}

/** A saved card as the pages name it: its brand's label (§3), last 4 digits and expiry (MM/YYYY). */
export interface CardDescription {
  brand: string;
  last4: string;
  expiry: string;
}

export function describeCard(profile: PaymentProfile): CardDescription {
  return {
    brand: CARD_TYPE_LABELS[profile.cardType],
    last4: profile.maskedCardNumber.replace(/\D/g, '').slice(-4),
    expiry: `${String(profile.expirationMonth).padStart(2, '0')}/${profile.expirationYear}`,
  };
}
