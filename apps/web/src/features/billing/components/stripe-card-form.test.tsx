// @vitest-environment jsdom
import type { PaymentGatewayConfiguration } from '@portal/contracts';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderSignedInPart } from '../../../components/render-for-test';
import { addMessages } from '../../../lib/i18n';
import { enPayments } from '../../../locales/en-payments';
import type { CardFormHandle } from './card-entry';
import {
  STRIPE_JS_URL,
  type StripeCardElement,
  type StripeConstructor,
  type StripeJs,
} from './stripe-card-form';

/*
 * Stripe's card form in jsdom. Stripe.js cannot be reached here, so the test plays its part: it
 * answers the script tag the form adds by defining window.Stripe with a card element that records
 * what the form does with it, and fires the tag's load event.
 */

const CONFIGURATION: PaymentGatewayConfiguration = {
  provider: 'stripe',
  publicKey: 'pk_test_form0123',
  siteSubdomain: 'test',
  tokenizeUrl: null,
};

beforeAll(() => addMessages(enPayments));
afterEach(cleanup);

const stripeScripts = () =>
  [...document.querySelectorAll('script')].filter((script) => script.src === STRIPE_JS_URL);

interface FakeStripe {
  keys: string[];
  mountedIn: HTMLElement[];
  updates: { disabled?: boolean }[];
  destroyed: number;
  change(event: { complete: boolean; error?: { message: string } }): void;
  createPaymentMethod: ReturnType<typeof vi.fn<StripeJs['createPaymentMethod']>>;
}

/** Stripe.js as far as the form uses it, defined when the form's script tag "loads". */
function stripeJs(): FakeStripe & { Stripe: StripeConstructor } {
  let onChange: (event: { complete: boolean; error?: { message: string } }) => void = () => undefined;
  const fake: FakeStripe = {
    keys: [],
    mountedIn: [],
    updates: [],
    destroyed: 0,
    change: (event) => act(() => onChange(event)),
    createPaymentMethod: vi.fn<StripeJs['createPaymentMethod']>(),
  };
  const element: StripeCardElement = {
    mount: (domElement) => fake.mountedIn.push(domElement),
    update: (options) => fake.updates.push(options),
    on: (_event, handler) => {
      onChange = handler;
    },
    destroy: () => {
      fake.destroyed += 1;
    },
  };
  const Stripe: StripeConstructor = (key) => {
    fake.keys.push(key);
    return { elements: () => ({ create: () => element }), createPaymentMethod: fake.createPaymentMethod };
  };
  return Object.assign(fake, { Stripe });
}

async function renderForm(configuration = CONFIGURATION, disabled = false) {
  const { StripeCardForm } = await import('./stripe-card-form');
  const ref = createRef<CardFormHandle>();
  const view = renderSignedInPart(
    <StripeCardForm configuration={configuration} disabled={disabled} ref={ref} />,
  );
  return { ref, view };
}

describe("Stripe's card form", () => {
  it('loads Stripe.js from Stripe only once a form is shown, mounts the card field and hands over the PaymentMethod id', async () => {
    await import('./stripe-card-form');
    expect(stripeScripts(), 'importing the chunk loads nothing from Stripe').toEqual([]);

    const { ref } = await renderForm();
    const [script] = stripeScripts();
    expect(script).toBeDefined();
    expect(screen.getByText(/Test mode: no real card is charged/)).toBeDefined();

    const stripe = stripeJs();
    window.Stripe = stripe.Stripe;
    script!.dispatchEvent(new Event('load'));
    await waitFor(() => expect(stripe.mountedIn).toEqual([screen.getByTestId('stripe-card-element')]));
    expect(stripe.keys).toEqual([CONFIGURATION.publicKey]);

    // An incomplete card is not sent: Stripe is asked for nothing.
    expect(await ref.current!.validate()).toBe(false);
    expect(await screen.findByText('Please enter the card number.')).toBeDefined();
    stripe.change({ complete: false, error: { message: 'Your card number is incomplete.' } });
    expect(await screen.findByText('Your card number is incomplete.')).toBeDefined();
    expect(await ref.current!.tokenize()).toBeNull();
    expect(stripe.createPaymentMethod).not.toHaveBeenCalled();

    stripe.change({ complete: true });
    expect(await ref.current!.validate()).toBe(true);
    stripe.createPaymentMethod.mockResolvedValueOnce({ paymentMethod: { id: 'pm_123abc' } });
    let token: string | null = null;
    await act(async () => {
      token = await ref.current!.tokenize();
    });
    expect(token).toBe('pm_123abc');
    expect(stripe.createPaymentMethod).toHaveBeenCalledWith({ type: 'card', card: expect.anything() });

    // Stripe's refusal is shown as Stripe words it, and no token is handed over.
    stripe.createPaymentMethod.mockResolvedValueOnce({ error: { message: 'Your card was declined.' } });
    await act(async () => {
      token = await ref.current!.tokenize();
    });
    expect(token).toBeNull();
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');

    cleanup();
    expect(stripe.destroyed).toBe(1);
  });

  it('uses the Stripe.js already on the page, follows `disabled`, and shows no test-mode note with live keys', async () => {
    const stripe = stripeJs();
    window.Stripe = stripe.Stripe;
    const scriptsBefore = stripeScripts().length;
    await renderForm({ ...CONFIGURATION, publicKey: 'pk_live_form0123', siteSubdomain: 'live' }, true);
    await waitFor(() => expect(stripe.mountedIn).toHaveLength(1));
    expect(stripeScripts()).toHaveLength(scriptsBefore);
    expect(screen.queryByText(/Test mode/)).toBeNull();
    await waitFor(() => expect(stripe.updates).toContainEqual({ disabled: true }));
  });
});
