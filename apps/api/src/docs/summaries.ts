/**
 * The one-line summary of each route in the API reference, by `METHOD path` as the document names
 * it. The routes' own schemas say what goes in and out; this says what the call is for.
 * test/api-docs.test.ts fails for a documented route without one.
 */
export const OPERATION_SUMMARIES: Record<string, string> = {
  'GET /api/health': 'Whether the server is up (the same as /healthz)',
  'GET /healthz': 'Whether the server process is alive (checks nothing else)',
  'GET /readyz': 'Whether the server can serve: its database and job queue answer (503 naming the part that does not)',
  'GET /api/v1/config/': 'Public configuration: product name, sign-in options, help links',
  'GET /api/v1/utils/countries': 'Countries of the billing forms',
  'GET /api/v1/utils/subdivisions': "A country's states or provinces",

  'GET /api/v1/accounts/me': "The signed-in user's account and organisation (created at the first call)",
  'PUT /api/v1/accounts/': 'Set up the organisation, or after setup change its billing details',
  'PUT /api/v1/accounts/me/tour': 'Record that the caller finished or skipped the guided tour, which is then no longer offered',
  'PUT /api/v1/accounts/security':
    'Require two-factor authentication of members who sign in with a password or Google (MANAGE_SECURITY)',
  'GET /api/v1/audit-log/':
    "A page of the organisation's audit log, newest first, filtered by actor, action, target and time (VIEW_AUDIT_LOG)",
  'GET /api/v1/audit-log/export':
    "Every entry of the organisation's audit log that the list's filters match, newest first, as a CSV download streamed as it is read (VIEW_AUDIT_LOG)",
  'GET /api/v1/accounts/billing-country':
    'The billing country and whether a card payment has fixed it (then only an operator changes it)',
  'GET /api/v1/accounts/tax': 'Tax rates by billing country',
  'GET /api/v1/accounts/freecredits': 'Free credit granted for each top-up amount',
  'GET /api/v1/accounts/usages': "The organisation's monthly active users this month",
  'GET /api/v1/accounts/contracts': "The organisation's contract: type, licensed MAU, support plan",
  'GET /api/v1/accounts/usages/monthly':
    "Each application's monthly active users in each of the last 12 months (UTC), oldest first",
  'GET /api/v1/usage-alerts/':
    "The organisation's usage alerts and the addresses they also tell, or its contract's defaults (VIEW_PLAN_DETAIL; money kinds with VIEW_BILLING)",
  'PUT /api/v1/usage-alerts/':
    "Save the organisation's usage alerts and added addresses, the whole set at once (MANAGE_USAGE_ALERTS)",
  'GET /api/v1/usage-alerts/notices':
    "This month's usage alerts crossed that are still set, for the application list's banner (VIEW_PLAN_DETAIL)",

  'GET /api/v1/transactions/': "A page of 30 of the organisation's transactions, newest or oldest first",
  'POST /api/v1/transactions/search': 'Transactions whose padded id starts with the term (autocomplete)',
  'GET /api/v1/transactions/{id}': 'One transaction',
  'GET /api/v1/transactions/{id}/details/{invoiceType}':
    "A transaction's invoice lines, in its invoice type's shape",
  'GET /api/v1/transactions/{id}/payment-summary':
    "What a transaction's invoice comes to, what is paid and due",
  'GET /api/v1/transactions/{id}/report':
    "A signed link to the transaction's invoice PDF, valid for 10 minutes without a session",
  'GET /api/v1/invoices/{id}.pdf':
    'The invoice PDF behind a signed link; a changed or expired link answers a page saying so',
  'POST /api/v1/transactions/{id}/pay': 'Pay what an open service charge (its invoice) or miscellaneous charge still owes by card (a token or a saved card)',

  'GET /api/v1/accounts/payment-gateway': "The card provider's client configuration: what the card form needs",
  'GET /api/v1/accounts/payment-profiles': "The organisation's saved cards, the default first",
  'POST /api/v1/accounts/payment-profiles':
    'Save the card a token names; on an inactive account it pays what is due and reactivates it',
  'DELETE /api/v1/accounts/payment-profiles/{id}': 'Remove a saved card (the newest other card becomes the default)',
  'PUT /api/v1/accounts/payment-profiles/{profileId}/default': 'Make a saved card the default',
  'POST /api/v1/accounts/topup':
    'Top up the prepaid balance by card: the amount less free credit, plus tax, is charged',
  'POST /api/v1/payments/stripe/webhook':
    "Stripe's events, signed with the webhook secret (Stripe-Signature): a PaymentIntent's success or " +
    'failure settles the card payment it was made for (PAYMENT_PROVIDER=stripe only)',

  'GET /api/v1/applications/': 'Applications the caller may see',
  'POST /api/v1/applications/': 'Create an application in a region',
  'GET /api/v1/applications/{applicationId}': 'One application',
  'PUT /api/v1/applications/{applicationId}': 'Rename an application',
  'POST /api/v1/applications/{applicationId}/deactivate': 'Deactivate an application (its name confirms it)',
  'POST /api/v1/applications/{applicationId}/reactivate': 'Reactivate a deactivated application',
  'GET /api/v1/applications/{applicationId}/api-keys':
    "The application's API keys, newest first, with their status and last use (never the keys themselves)",
  'POST /api/v1/applications/{applicationId}/api-keys':
    'Make an API key (at most 5 work at once); the answer holds the key itself, shown this once',
  'POST /api/v1/applications/{applicationId}/api-keys/{keyId}/rotate':
    "Make the key's successor and stop the key after the overlap (now, 1 hour, 24 hours or 7 days)",
  'POST /api/v1/applications/{applicationId}/api-keys/{keyId}/revoke':
    "Stop an API key at once, whatever the application's or the account's state",

  'GET /api/v1/members/': "The organisation's members",
  'GET /api/v1/members/me': "The caller's own membership",
  'GET /api/v1/members/{memberId}': 'One member',
  'PUT /api/v1/members/{memberId}': "Change a member's name, role and application access",
  'DELETE /api/v1/members/{memberId}': 'Remove a member',
  'PUT /api/v1/members/{memberId}/password': 'Change your own password',
  'GET /api/v1/roles/': 'The roles a member can have',

  'GET /api/v1/sso/': "Get the organisation's single sign-on settings: its identity provider, the values to give it, sign-in",
  'POST /api/v1/sso/connection/test': 'Test an identity provider connection (OIDC discovery and keys, or SAML metadata); nothing is stored',
  'PUT /api/v1/sso/connection': 'Update the identity provider connection, after testing it again',
  'DELETE /api/v1/sso/connection': 'Delete the identity provider connection (single sign-on stops being required)',
  'PUT /api/v1/sso/settings':
    'Update the sign-in settings: the SSO domain, owned email domains, allowed addresses, new members’ role and applications, and whether SSO is required',
  'POST /api/v1/sso/email-domains/{domain}/verify':
    "Verify a listed email domain by its DNS TXT record now: verified, or why it is still pending",

  'GET /api/v1/invitations/': 'Pending invitations',
  'POST /api/v1/invitations/': 'Invite people by address, with a role and application access',
  'DELETE /api/v1/invitations/{invitationId}': 'Cancel an invitation',
  'POST /api/v1/invitations/{invitationId}/resend': 'Mail an invitation again',
  'POST /api/invitations/verify': "Check an invitation link's code (the invitee, before having an account)",
  'POST /api/invitations/{invitationId}/confirm': 'Accept an invitation: creates the account and signs in',

  'GET /api/operator/v1/organizations': 'Operator: a page of 100 organisations, oldest first, and the total',
  'GET /api/operator/v1/organizations/{organization}':
    "Operator: one organisation (by id or a member's address) with contract, limits, status and balance",
  'PUT /api/operator/v1/organizations/{organization}/contract':
    'Operator: set the contract, PAYG or flat-rate with its licence, fee and support plan',
  'PUT /api/operator/v1/organizations/{organization}/limits':
    'Operator: set the application and member limits',
  'PUT /api/operator/v1/organizations/{organization}/status':
    'Operator: suspend the account (inactive, which payments do not lift) or set it active',
  'PUT /api/operator/v1/organizations/{organization}/billing-country':
    'Operator: set the billing country, also once a card payment has fixed it (the tax of later payments)',
  'PUT /api/operator/v1/organizations/{organization}/free-credit':
    'Operator: whether top-ups earn free credit by the tiers',
  'POST /api/operator/v1/organizations/{organization}/credits':
    'Operator: grant credit to the prepaid balance (a service credit in the ledger)',
  'POST /api/operator/v1/organizations/{organization}/charges':
    'Operator: raise a miscellaneous charge, open until the organisation pays it by card',
  'POST /api/operator/v1/organizations/{organization}/charges/{transactionId}/void':
    'Operator: void an open miscellaneous charge raised by mistake, so it is no longer due',
  'POST /api/operator/v1/usage-imports': "Operator: import a month's monthly active users from every region",
  'POST /api/operator/v1/billing-runs': 'Operator: bill a month that has ended, each organisation once',
  'POST /api/operator/v1/two-factor-resets':
    "Operator: remove a person's second factor and end their sessions (they are mailed a notice)",

  'POST /api/internal/v1/regional-sessions/check':
    "A region asks whether a console session may go on (the regions' admin token, not a member's session)",

  'GET /dev/mailbox/': 'Development outbox: every mail the portal sent (not mounted in production)',
  'GET /dev/mailbox/messages': 'Development outbox: the latest mails, optionally to one address',
  'GET /dev/mailbox/messages/{id}': 'Development outbox: one mail as HTML',
};
