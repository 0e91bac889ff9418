import type { PaymentGatewayConfiguration, PaymentProvider } from '@portal/contracts';
import { lazy, Suspense, useCallback, useRef, useState, type ComponentType, type Ref } from 'react';
import { Loading } from '../../../components/page-loader';
import { browserChunkReloads, reloadOnceOnChunkFailure } from '../../../lib/chunk-reload';
import { useTranslation } from '../../../lib/i18n';
import { usePaymentGateway } from '../api/get-payment-gateway';
import { LoadError } from './load-error';

/** What the page asks of a provider's card form when the user pays or saves a card. */
export interface CardFormHandle {
  /** Checks the card's fields and shows their messages: true when the card can be sent. */
  validate(): Promise<boolean>;
  /**
   * Has the gateway tokenise the card: its token, or null when the card was not taken (the form
   * shows why). Card data goes from the browser to the gateway only.
   */
  tokenize(): Promise<string | null>;
}

export interface CardFormProps {
  configuration: PaymentGatewayConfiguration;
  disabled: boolean;
  ref: Ref<CardFormHandle>;
}

/** The sandbox's own card form, in a chunk of its own: loaded only when a card is to be entered. */
const SandboxCardForm = lazy(
  reloadOnceOnChunkFailure(
    () => import('./sandbox-card-form').then((module) => ({ default: module.SandboxCardForm })),
    'sandbox-card-form',
    browserChunkReloads(),
  ),
);

/** Stripe's card form (Stripe Elements from Stripe's CDN), in a chunk of its own, for Stripe mode only. */
const StripeCardForm = lazy(
  reloadOnceOnChunkFailure(
    () => import('./stripe-card-form').then((module) => ({ default: module.StripeCardForm })),
    'stripe-card-form',
    browserChunkReloads(),
  ),
);

/** The card form of each provider (PaymentGatewayConfiguration.provider). */
const CARD_FORMS: Readonly<Record<PaymentProvider, ComponentType<CardFormProps>>> = {
  sandbox: SandboxCardForm,
  stripe: StripeCardForm,
};

/**
 * The card form a page holds: `ref` goes to CardEntry, `current()` is the form once it is on screen
 * (its code loads on first use), `ready` says whether it is, so a pay button can wait for it.
 */
export function useCardForm() {
  const handle = useRef<CardFormHandle | null>(null);
  const [ready, setReady] = useState(false);
  const ref = useCallback((form: CardFormHandle | null) => {
    handle.current = form;
    setReady(form !== null);
  }, []);
  return { ref, ready, current: () => handle.current };
}

/** A new card, entered in the form of the portal's payment provider. */
export function CardEntry({ ref, disabled }: { ref: Ref<CardFormHandle>; disabled: boolean }) {
  const { t } = useTranslation();
  const gateway = usePaymentGateway();
  if (gateway.isPending) return <Loading />;
  if (gateway.isError) return <LoadError title={t('payment.gateway.loadError')} error={gateway.error} />;
  const CardForm = CARD_FORMS[gateway.data.provider];
  return (
    <Suspense fallback={<Loading />}>
      <CardForm configuration={gateway.data} disabled={disabled} ref={ref} />
    </Suspense>
  );
}
