import { Input } from '@mantine/core';
import { CARD_NAME_MAX_LENGTH } from '@portal/contracts';
import { useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { CardFormProps } from './card-entry';
import { CardFieldset } from './card-fieldset';

/**
 * Stripe.js, always from Stripe's CDN: Stripe does not allow it to be bundled or hosted elsewhere.
 * The page's Content-Security-Policy lets it (and its frames) in with PAYMENT_PROVIDER=stripe only.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3';

/** The part of Stripe.js the card form uses. */
export interface StripeCardElement {
  mount(domElement: HTMLElement): void;
  update(options: { disabled?: boolean }): void;
  on(event: 'change', handler: (event: { complete: boolean; error?: { message: string } }) => void): void;
  destroy(): void;
}
export interface StripeJs {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement };
  createPaymentMethod(data: {
    type: 'card';
    card: StripeCardElement;
    billing_details?: { name?: string };
  }): Promise<{ paymentMethod?: { id: string }; error?: { message?: string } }>;
}
export type StripeConstructor = (publishableKey: string) => StripeJs;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

let loading: Promise<StripeConstructor> | undefined;

/**
 * Loads Stripe.js once per page, when a Stripe card form first needs it (never on import), by adding
 * its script tag; a failure lets the next form try again.
 */
export function loadStripeJs(): Promise<StripeConstructor> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  loading ??= new Promise<StripeConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.addEventListener('load', () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js loaded without Stripe')),
    );
    script.addEventListener('error', () => {
      loading = undefined;
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    });
    document.head.append(script);
  });
  return loading;
}

interface MountedCard {
  stripe: StripeJs;
  element: StripeCardElement;
}

/**
 * Stripe's card form (the same contract as the sandbox's, CardFormProps): Stripe Elements' card
 * field, in Stripe's frame, takes the number, expiry and CVC, and `tokenize()` has Stripe make a
 * PaymentMethod from it; its id (`pm_…`) is the token the portal API is given. The card never
 * reaches the portal's page scripts. With test keys (siteSubdomain `test`) the form says so.
 */
export function StripeCardForm({ configuration, disabled, ref }: CardFormProps) {
  const { t } = useTranslation();
  const fieldId = useId();
  const container = useRef<HTMLDivElement>(null);
  const mounted = useRef<Promise<MountedCard> | null>(null);
  const complete = useRef(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');

  useEffect(() => {
    let element: StripeCardElement | undefined;
    let cancelled = false;
    const card = loadStripeJs().then((Stripe) => {
      if (cancelled || !container.current) throw new Error('the card form is gone');
      const stripe = Stripe(configuration.publicKey);
      element = stripe.elements().create('card', { hidePostalCode: true, disabled });
      element.on('change', (event) => {
        complete.current = event.complete;
        setCardError(event.error?.message ?? null);
      });
      element.mount(container.current);
      return { stripe, element };
    });
    card.catch(() => {
      if (!cancelled) setLoadFailed(true);
    });
    mounted.current = card;
    return () => {
      cancelled = true;
      element?.destroy();
      mounted.current = null;
    };
    // `disabled` is followed below without mounting the field again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [configuration.publicKey]);

  useEffect(() => {
    void mounted.current?.then(
      ({ element }) => element.update({ disabled }),
      () => undefined,
    );
  }, [disabled]);

  useImperativeHandle(
    ref,
    () => ({
      async validate() {
        if (!complete.current && !cardError) setCardError(t('payment.card.number.required'));
        return complete.current;
      },
      async tokenize() {
        setRefusal(null);
        if (!complete.current) {
          if (!cardError) setCardError(t('payment.card.number.required'));
          return null;
        }
        try {
          const card = await mounted.current;
          if (!card) return null;
          const name = [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');
          const result = await card.stripe.createPaymentMethod({
            type: 'card',
            card: card.element,
            ...(name ? { billing_details: { name } } : {}),
          });
          if (result.paymentMethod) return result.paymentMethod.id;
          setRefusal(result.error?.message ?? 'common.somethingWrong');
        } catch {
          setRefusal('payment.gateway.loadError');
        }
        return null;
      },
    }),
    [cardError, firstName, lastName, t],
  );

  return (
    <CardFieldset
      disabled={disabled}
      testCards={configuration.siteSubdomain === 'test'}
      refusal={refusal ?? (loadFailed ? 'payment.gateway.loadError' : null)}
      firstName={{
        maxLength: CARD_NAME_MAX_LENGTH,
        value: firstName,
        onChange: (event) => setFirstName(event.currentTarget.value),
      }}
      lastName={{
        maxLength: CARD_NAME_MAX_LENGTH,
        value: lastName,
        onChange: (event) => setLastName(event.currentTarget.value),
      }}
    >
      <Input.Wrapper label={t('payment.card.number')} id={fieldId} error={cardError}>
        {/* Stripe mounts its card field (number, expiry, CVC) in its own frame here. */}
        <Input
          component="div"
          id={fieldId}
          error={Boolean(cardError)}
          styles={{ input: { display: 'flex', alignItems: 'center' } }}
        >
          <div ref={container} data-testid="stripe-card-element" style={{ width: '100%' }} />
        </Input>
      </Input.Wrapper>
    </CardFieldset>
  );
}
