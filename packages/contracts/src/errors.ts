import { messages, type MessageKey } from './messages.ts';

/** Every error the API answers, with its HTTP status and default message key. */
export const ERROR_DEFINITIONS = {
  VALIDATION_ERROR: { status: 400, message: 'errors.validation' },
  BAD_REQUEST: { status: 400, message: 'errors.badRequest' },
  CONTROL_CHARACTER: { status: 400, message: 'errors.controlCharacter' },
  CROSS_ORIGIN_REQUEST: { status: 403, message: 'errors.crossOrigin' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'errors.unsupportedMediaType' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'errors.payloadTooLarge' },
  TOO_MANY_ATTEMPTS: { status: 403, message: 'errors.tooManyAttempts' },
  UNAUTHORIZED: { status: 401, message: 'errors.unauthorized' },
  FORBIDDEN: { status: 403, message: 'errors.forbidden' },
  NOT_FOUND: { status: 404, message: 'errors.notFound' },
  RATE_LIMITED: { status: 429, message: 'auth.error.rateLimited' },
  INTERNAL_ERROR: { status: 500, message: 'errors.internal' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'errors.serviceUnavailable' },
  CORPORATE_EMAIL_REQUIRED: { status: 400, message: 'signupForm.email.validation.corporate.lambda.error' },
  ACCOUNT_ALREADY_SET_UP: { status: 409, message: 'errors.accountAlreadySetUp' },
  LEGAL_NOT_ACCEPTED: { status: 400, message: 'errors.legalNotAccepted' },
  ACCOUNT_INACTIVE: { status: 403, message: 'errors.accountInactive' },
  APPLICATION_LIMIT_REACHED: { status: 409, message: 'errors.applicationLimitReached' },
  APPLICATION_NOT_ACTIVE: { status: 409, message: 'errors.applicationNotActive' },
  APPLICATION_NOT_DEACTIVATED: { status: 409, message: 'errors.applicationNotDeactivated' },
  CONFIRM_NAME_MISMATCH: { status: 400, message: 'errors.confirmNameMismatch' },
  REGION_UNAVAILABLE: { status: 503, message: 'errors.regionUnavailable' },
  /** The application already has MAX_WORKING_API_KEYS keys that work (decision 043). */
  API_KEY_LIMIT_REACHED: { status: 409, message: 'errors.apiKeyLimitReached' },
  API_KEY_NOT_FOUND: { status: 404, message: 'errors.apiKeyNotFound' },
  /** A usage alert of a kind the organisation's contract has no figure for (decision 044). */
  USAGE_ALERT_NOT_FOR_CONTRACT: { status: 400, message: 'errors.usageAlertNotForContract' },
  NOT_READY: { status: 503, message: 'errors.notReady' },
  INVITATION_LIMIT_EXCEEDED: { status: 409, message: 'invitation.error.limitExceeded' },
  INVITATION_PENDING_LIMIT_EXCEEDED: { status: 409, message: 'invitation.error.pendingLimit' },
  INVITATION_EMAIL_ALREADY_EXISTS: { status: 409, message: 'invitation.error.emailAlreadyInvited' },
  MEMBER_EMAIL_ALREADY_EXISTS_IN_THIS_ORG: { status: 409, message: 'invitation.error.memberInThisOrg' },
  MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG: { status: 409, message: 'invitation.error.memberInOtherOrg' },
  INVITATION_CODE_INVALID: { status: 404, message: 'invitation.error.invalid' },
  INVITATION_CODE_EXPIRED: { status: 410, message: 'invitation.error.expired' },
  INVITATION_NOT_OPEN: { status: 409, message: 'invitation.error.notOpen' },
  SSO_ENFORCED: { status: 403, message: 'invitation.error.ssoEnforced' },
  INVALID_PASSWORD: { status: 400, message: 'errors.invalidPassword' },
  PASSWORD_NOT_SET: { status: 409, message: 'errors.passwordNotSet' },
  ROLE_NOT_ASSIGNABLE: { status: 403, message: 'errors.roleNotAssignable' },
  MEMBER_NOT_EDITABLE: { status: 403, message: 'errors.memberNotEditable' },
  CANNOT_REMOVE_SELF: { status: 409, message: 'errors.cannotRemoveSelf' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'errors.idempotencyKeyReused' },
  CARD_NOT_SUPPORTED: { status: 422, message: 'errors.cardNotSupported' },
  CARD_DECLINED: { status: 402, message: 'errors.cardDeclined' },
  CARD_INSUFFICIENT_FUNDS: { status: 402, message: 'errors.cardInsufficientFunds' },
  CARD_EXPIRED: { status: 402, message: 'errors.cardExpired' },
  CARD_TOKEN_INVALID: { status: 400, message: 'errors.cardTokenInvalid' },
  CARD_AUTHENTICATION_REQUIRED: { status: 402, message: 'errors.cardAuthenticationRequired' },
  TRANSACTION_NOT_PAYABLE: { status: 409, message: 'errors.transactionNotPayable' },
  /** Only an open miscellaneous charge is voided: a paid one, one being paid, or a bill of usage stands. */
  TRANSACTION_NOT_VOIDABLE: { status: 409, message: 'errors.transactionNotVoidable' },
  PAYMENT_NOT_CONFIRMED: { status: 503, message: 'errors.paymentNotConfirmed' },
  PAYMENT_GATEWAY_UNAVAILABLE: { status: 503, message: 'errors.paymentGatewayUnavailable' },
  WEBHOOK_SIGNATURE_INVALID: { status: 400, message: 'errors.webhookSignatureInvalid' },
  TOP_UP_NOT_AVAILABLE: { status: 409, message: 'errors.topUpNotAvailable' },
  /** Tax follows the billing country: once a card payment has fixed it, only an operator changes it (decision 030). */
  BILLING_COUNTRY_LOCKED: { status: 409, message: 'errors.billingCountryLocked' },
  TWO_FACTOR_ENROLMENT_REQUIRED: { status: 403, message: 'errors.twoFactorEnrolmentRequired' },
  OWN_TWO_FACTOR_REQUIRED: { status: 409, message: 'errors.ownTwoFactorRequired' },
  SSO_ORGANIZATION_NOT_FOUND: { status: 404, message: 'sso.error.organizationNotFound' },
  SSO_REQUIRED: { status: 403, message: 'sso.error.required' },
  SSO_NOT_CONFIGURED: { status: 409, message: 'sso.error.notConfigured' },
  SSO_DOMAIN_TAKEN: { status: 409, message: 'sso.error.domainTaken' },
  SSO_EMAIL_DOMAIN_TAKEN: { status: 409, message: 'sso.error.emailDomainTaken' },
  SSO_EMAIL_DOMAIN_FREE_MAIL: { status: 400, message: 'sso.error.emailDomainFreeMail' },
  SSO_EMAIL_DOMAIN_NOT_FOUND: { status: 404, message: 'sso.error.emailDomainNotFound' },
  /**
   * The one answer an SSO sign-in ends with when the person may not be signed in here for a reason
   * that is not this organisation's own rule (a member elsewhere, an unverified address, an existing
   * user who was not invited): it tells the identity provider's side nothing about the person.
   */
  SSO_SIGN_IN_REFUSED: { status: 403, message: 'sso.error.signInRefused' },
  SSO_CONNECTION_FAILED: { status: 422, message: 'sso.error.connectionFailed' },
  SSO_APPLICATION_NOT_FOUND: { status: 400, message: 'sso.error.defaultApplicationNotFound' },
  USER_LIMIT_REACHED: { status: 403, message: 'sso.error.userLimitReached' },
  NOT_IN_WHITELIST: { status: 403, message: 'sso.error.notInWhitelist' },
} as const satisfies Record<string, { status: number; message: MessageKey }>;

export type ErrorCode = keyof typeof ERROR_DEFINITIONS;

export function defaultErrorMessage(code: ErrorCode): string {
  return messages[ERROR_DEFINITIONS[code].message];
}
