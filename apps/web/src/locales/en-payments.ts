import type { MessageKey } from '@portal/contracts';

/**
 * The wording of the card payment (/payment/:sub/:type) and manage payment (/manage-payment) pages,
 * added to the messages by those two routes when they load, so the other signed-in pages do not
 * carry it. Validation messages of the card and top-up forms are keys here too: the card data never
 * reaches the API, so these rules live in the web app only.
 */
export const enPayments = {
  'payment.title.topUp': 'Top up your balance',
  'payment.title.transaction': 'Pay transaction {{id}}',
  'payment.unavailable.title': 'This payment is not available',
  'payment.unavailable.text':
    'Open the transaction you want to pay from Billing, or top up your balance there.',
  'payment.topUp.flatRate':
    'Top-ups are for pay-as-you-go accounts. Your invoices are paid by card from Billing.',
  'payment.pay': 'Pay {{amount}}',
  'payment.goToBilling': 'Go to billing',

  'payment.amount.label': 'Top-up amount (USD)',
  'payment.amount.description': 'Added to your prepaid balance. At least $1.00.',
  'payment.amount.required': 'Please enter an amount.',
  'payment.amount.min': 'The amount must be at least $1.00.',
  'payment.amount.max': 'The amount can be at most $1,000,000.00.',
  'payment.amount.decimals': 'Use at most 2 decimals.',

  'payment.summary.title': 'Order summary',
  'payment.summary.amount': 'Top-up amount',
  'payment.summary.freeCredit': 'Free credit',
  'payment.summary.subtotal': 'Subtotal',
  'payment.summary.tax': 'Tax ({{percentage}}%)',
  'payment.summary.total': 'Total',
  'payment.summary.loadError': 'The order summary could not be loaded.',
  'payment.summary.enterAmount': 'Enter an amount to see the total.',
  'payment.transaction.loadError': 'The payment summary of this transaction could not be loaded.',
  'payment.transaction.nothingDue': 'Nothing is due on this transaction.',
  'payment.transaction.notes': 'For',

  'payment.source.label': 'Pay with',
  'payment.source.newCard': 'A new card',
  'payment.source.savedCard': '{{brand}} ending in {{last4}}',
  'payment.source.expires': 'Expires {{expiry}}',
  'payment.source.loadError': 'Your saved cards could not be loaded. You can pay with a new card.',

  'payment.card.legend': 'Card details',
  'payment.card.number': 'Card number',
  'payment.card.expMonth': 'Expiry month',
  'payment.card.expYear': 'Expiry year',
  'payment.card.cvc': 'CVC',
  'payment.card.firstName': 'First name on card',
  'payment.card.lastName': 'Last name on card',
  'payment.card.monthPlaceholder': 'MM',
  'payment.card.yearPlaceholder': 'YYYY',
  'payment.card.number.required': 'Please enter the card number.',
  'payment.card.number.invalid': 'Please enter a valid card number.',
  'payment.card.expMonth.required': 'Please choose the expiry month.',
  'payment.card.expYear.required': 'Please choose the expiry year.',
  'payment.card.cvc.required': 'Please enter the CVC.',
  'payment.card.cvc.invalid': 'The CVC has 3 or 4 digits.',
  'payment.card.name.tooLong': 'This name can have at most 250 characters.',
  'payment.card.notSupported':
    'Your card is not supported. We accept VISA, Mastercard, AMEX and Discover cards.',
  'payment.card.sandbox':
    'Test mode: no real card is charged. Use 4242 4242 4242 4242 with any future expiry and any CVC.',
  'payment.gateway.loadError': 'The card form could not be loaded.',

  'managePayment.inactive':
    'Your account is inactive. Add a card: what is due is paid with it and your account is reactivated.',
  'managePayment.cards.title': 'Saved cards',
  'managePayment.cards.add': 'Add card',
  'managePayment.cards.empty': 'No saved cards yet. Add a card to pay invoices and top up your balance.',
  'managePayment.cards.loadError': 'Your saved cards could not be loaded.',
  'managePayment.cards.expires': 'Expires {{expiry}}',
  'managePayment.cards.default': 'Default',
  'managePayment.cards.setDefault': 'Set as default',
  'managePayment.cards.setDefaultLabel': 'Set the {{card}} as default',
  'managePayment.cards.removeLabel': 'Remove the {{card}}',
  'managePayment.cards.defaultChanged': 'The {{card}} is now your default card.',
  'managePayment.remove.title': 'Remove card',
  'managePayment.remove.question': 'Remove the {{card}}? It can no longer be used for payments.',
  'managePayment.remove.confirm': 'Remove card',
  'managePayment.remove.cancel': 'Keep card',
  'managePayment.remove.done': 'The {{card}} was removed.',
  'managePayment.add.title': 'Add a card',
  'managePayment.add.setAsDefault': 'Use as my default card',
  'managePayment.add.submit': 'Save card',
  'managePayment.add.cancel': 'Cancel',
  'managePayment.add.done': 'The {{card}} was added.',
  'managePayment.reactivated.title': 'Your account is being reactivated',
  'managePayment.reactivated.text':
    'Thank you. What your account owed has been paid with the new card and your account is active again. Your applications will be back within 24 hours.',
  'managePayment.reactivated.close': 'Got it',

  'managePayment.billing.title': 'Billing information',
  'managePayment.billing.inactive': 'Billing information can be changed while the account is active.',
  'managePayment.billing.countryLocked':
    'Fixed since your first payment, as it sets your tax. Contact support to change it.',
  'managePayment.billing.address': 'Billing address',
  'managePayment.billing.address2': 'Address line 2 (optional)',
  'managePayment.billing.city': 'City (optional)',
  'managePayment.billing.state': 'State or province',
  'managePayment.billing.statePlaceholder': 'Select a state',
  'managePayment.billing.noState': 'No state',
  'managePayment.billing.statesFailed': 'The states of this country could not be loaded.',
  'managePayment.billing.zipCode': 'Zip or postal code',
  'managePayment.billing.vat': 'VAT registration',
  'managePayment.billing.vatRegistered': 'VAT registered',
  'managePayment.billing.vatUnregistered': 'Not VAT registered',
  'managePayment.billing.vatNumber': 'VAT number',
  'managePayment.billing.save': 'Save billing information',
  'managePayment.billing.saved': 'Billing information saved.',
} as const satisfies Record<string, string> & { [key in MessageKey]?: never };
