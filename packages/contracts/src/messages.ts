/**
 * English wording for every message key the validation schemas and error codes use.
 * The web app loads this object as its i18next resource, and the API answers with the same
 * text, so a rule's message is written once.
 */
export const messages = {
  'common.networkError': 'Network error',
  'common.offline': 'No internet connection',
  'common.somethingWrong': 'Something went wrong. Please try again later.',
  'common.anErrorOccurred': 'An error occurred',

  'validation.required': 'This field is required.',
  'validation.email.required': 'Please enter your email.',
  'validation.email.invalid': 'Please enter a valid email.',
  'validation.password.required': 'Please enter your password.',
  'validation.password.min': 'Password must be at least 6 characters.',
  'validation.confirmPassword.required': 'Please confirm your password.',
  'validation.password.mismatch': 'Password mismatch',
  'validation.organization.required': 'Please enter your organization name.',
  'validation.firstName.required': 'Please enter your first name.',
  'validation.lastName.required': 'Please enter your last name.',
  'validation.billingAddress.required': 'Please enter your billing address.',
  'validation.billingCountry.required': 'Please select a country.',
  'validation.billingState.required': 'Please select a state.',
  'validation.billingZipCode.required': 'Please enter a zip or postal code.',
  'validation.vatNumber.required': 'Please enter your VAT number.',
  'validation.tooLong': 'This value is too long.',
  'validation.ssoDomain.required': 'Please enter your organization domain.',
  'validation.ssoDomain.format': 'Use letters, digits and dashes only, up to 32 characters.',
  'validation.code.required': 'Verification code is missing.',
  'validation.totpCode.format': 'Enter the 6-digit code from your authenticator app.',
  'validation.backupCode.required': 'Enter one of your backup codes.',
  'validation.tourOutcome': 'The outcome must be finished or skipped.',

  'signupForm.email.validation.corporate.lambda.error':
    'Please sign up with your corporate email. Personal email addresses are not allowed.',
  'signupForm.password.validation.length': 'Password must be at least 12 characters.',
  'signupForm.password.validation.lower': 'Password must contain a lowercase letter.',
  'signupForm.password.validation.caps': 'Password must contain an uppercase letter.',
  'signupForm.password.validation.numbers': 'Password must contain a number.',
  'signupForm.password.validation.special': 'Password must contain a special character.',
  'password.strongRequired':
    'At least 12 characters, uppercase & lowercase letters, numbers, and special characters.',

  'loginWithEmail.error.user.notConfirmed':
    'Your email is not confirmed yet. Enter the code we sent you or request a new one.',
  'loginWithEmail.error.incorrectCredentials': 'Incorrect username or password.',
  'loginWithEmail.error.pendingVerification': 'Your account is pending verification.',
  'loginWithEmail.error.accountExists': 'this account is existed already',
  'loginWithEmail.error.personalEmail': 'Personal email is not allowed.',

  'auth.error.emailOrPasswordMissing': 'Email or password is missing',
  'auth.error.emailOrCodeEmpty': 'Email or code is empty',
  'auth.error.parameterMissing': 'Some parameter is missing',
  'auth.error.emailMissing': 'Email is missing',
  'auth.error.codeExpired': 'The verification code has expired. Request a new one below.',
  'auth.error.codeInvalid':
    'This code is not valid or was already used. Request a new one, or sign in if your email is already verified.',
  'auth.error.codeAttemptsExceeded': 'Too many wrong codes. Request a new code and try again.',
  'auth.error.rateLimited': 'Too many attempts. Please wait a moment and try again.',
  'auth.error.twoFactorCodeInvalid':
    'This code is not correct. Enter the code your authenticator app shows now.',
  'auth.error.backupCodeInvalid': 'This backup code is not correct or was already used.',
  'auth.error.twoFactorExpired':
    'This sign-in has expired or had too many wrong codes. Please sign in again.',
  'auth.error.twoFactorLocked':
    'Too many wrong codes. Two-factor sign-in to this account is paused for 15 minutes; please try again later.',
  'auth.error.twoFactorAlreadyOn': 'Two-factor authentication is already on for your account.',

  'sso.error.userLimitReached': 'Your organization has reached its user limit. Contact your administrator.',
  'sso.error.notInWhitelist':
    'Your email is not allowed to sign in to this organization. Contact your administrator.',
  'sso.error.organizationNotFound': 'No organization signs in with single sign-on under this domain.',
  'sso.error.required':
    'Your organization signs in with single sign-on. Use "Sign in with SSO" and your organization domain.',
  'sso.error.notConfigured': 'Connect an identity provider before requiring single sign-on.',
  'sso.error.domainTaken': 'Another organization already uses this SSO domain.',
  'sso.error.emailDomainTaken': 'Another organization has already verified one of these email domains.',
  'sso.error.emailDomainFreeMail': 'Personal email domains such as gmail.com cannot be owned by an organization.',
  'sso.error.emailDomainNotFound': 'This email domain is not listed under single sign-on.',
  'sso.error.signInRefused':
    'Single sign-on could not sign you in to this organization. Ask your administrator to invite you.',
  'sso.error.connectionFailed': 'The identity provider could not be reached or its answer was not valid.',
  'sso.error.defaultApplicationNotFound': 'One of the chosen applications does not exist in this organization.',
  'validation.sso.issuer': 'Please enter the issuer URL of your identity provider.',
  'validation.sso.clientId': 'Please enter the client ID.',
  'validation.sso.clientSecret': 'Please enter the client secret.',
  'validation.sso.saml': 'Please paste the metadata XML, or enter the sign-in URL, entity ID and certificate.',
  'validation.sso.entryPoint': 'Please enter the sign-in URL of your identity provider.',
  'validation.sso.entityId': 'Please enter the entity ID of your identity provider.',
  'validation.sso.certificate': 'Please paste the signing certificate (PEM) of your identity provider.',
  'validation.sso.emailDomain': 'Enter an email domain such as example.com.',
  'validation.sso.emailDomainsTooMany': 'An organization can own at most 20 email domains.',
  'validation.sso.allowedEmail': 'Enter a valid email address.',
  'validation.sso.allowedEmailsTooMany': 'At most 500 addresses can be allowed.',

  'editAppModal.form.error.emptyName': 'Please enter an application name.',
  'validation.appName.tooLong': 'The application name can have at most 64 characters.',
  'validation.plan.invalid': 'Choose a plan: basic, advance or max.',
  'validation.region.invalid': 'Choose a region: SG, EU or US.',

  'errors.unauthorized': 'No authorization token was found',
  'errors.forbidden': 'You do not have permission to do this.',
  'errors.notFound': 'Not found.',
  'errors.validation': 'Some fields are not valid.',
  'errors.badRequest': 'The request is not valid.',
  'errors.controlCharacter': 'Control characters (such as NUL) are not allowed.',
  'errors.crossOrigin': 'This request must come from the portal itself.',
  'errors.unsupportedMediaType': 'Send the request body as application/json.',
  'errors.payloadTooLarge': 'The request body is too large.',
  'errors.tooManyAttempts': 'Too many wrong codes. Ask for a new code and try again.',
  'errors.internal': 'Something went wrong on our side. Please try again later.',
  'errors.serviceUnavailable': 'The service is briefly unavailable. Please try again in a few seconds.',
  'errors.accountAlreadySetUp': 'This organization is already set up.',
  'errors.legalNotAccepted': 'The privacy policy and the terms and conditions must be accepted.',
  'errors.accountInactive': 'Your account is inactive. Add a payment method to reactivate it.',
  'errors.applicationLimitReached': 'You have reached the application limit of your organization.',
  'errors.applicationNotActive': 'Only active applications can be changed.',
  'errors.applicationNotDeactivated': 'Only deactivated applications can be reactivated.',
  'errors.confirmNameMismatch': 'Type the application name exactly to confirm.',
  'errors.regionUnavailable': 'The application region is not reachable right now. Please try again later.',
  'errors.apiKeyLimitReached':
    'This application already has 5 API keys that work. Revoke one first, or rotate a key so that it stops at once.',
  'errors.apiKeyNotFound': 'This application has no such API key.',
  'errors.usageAlertNotForContract': "This alert does not apply to your organization's contract.",
  'errors.notReady': 'The server cannot answer requests yet.',
  'validation.displayName.required': 'Please enter display name',
  'validation.currentPassword.required': 'Please enter your current password.',
  'validation.role.required': 'Please enter a role.',
  'validation.applicationScopes.required': 'Please select at least one application.',
  'validation.invitationEmails.tooMany': 'You can invite at most 20 people at once.',
  'changePassword.mismatch': 'Password mismatch. Please try again.',

  'invitation.error.invalid': 'This invitation link is not valid or was already used.',
  'invitation.error.expired': 'The invitation link has expired',
  'invitation.error.limitExceeded':
    'Member limit reached. You have reached the {{limit}}-member limit in your organization. But you can still remove or replace them.',
  'invitation.error.emailAlreadyInvited': '{{email}} are already been invited. Please use a different email.',
  'invitation.error.memberInThisOrg': '{{email}} is already in the organization.',
  'invitation.error.memberInOtherOrg': '{{email}} is already associated with another organization.',
  'invitation.error.pendingLimit':
    'Your organization already has 50 pending invitations. Cancel some before inviting more people.',
  'invitation.error.ssoEnforced':
    'Your organization signs in with single sign-on, so invitations are turned off.',
  'invitation.error.notOpen': 'This invitation is no longer pending.',

  'errors.invalidPassword': 'Invalid current password. Please try again.',
  'errors.passwordNotSet':
    'This account signs in through an identity provider and has no password to change.',
  'errors.roleNotAssignable': 'You cannot give this role.',
  'errors.memberNotEditable': 'You cannot change or remove this member.',
  'errors.cannotRemoveSelf': 'You cannot remove yourself from the organization.',
  'errors.idempotencyKeyReused': 'This idempotency key was already used for a different request.',
  'errors.cardNotSupported': 'Your card is not supported.',
  'errors.cardDeclined': 'Your card was declined.',
  'errors.cardInsufficientFunds': 'Your card has insufficient funds.',
  'errors.cardExpired': 'Your card has expired.',
  'errors.cardTokenInvalid': 'The card details expired or were already used. Please enter the card again.',
  'errors.cardAuthenticationRequired':
    'Your card asks for an authentication (3-D Secure) that this portal cannot do yet. Please use another card.',
  'errors.transactionNotPayable': 'This transaction is not open for payment.',
  'errors.transactionNotVoidable': 'Only an open miscellaneous charge can be voided.',
  'errors.paymentGatewayUnavailable': 'The payment service is not reachable right now. Please try again later.',
  'errors.webhookSignatureInvalid':
    'The Stripe-Signature header is missing, or does not match this body signed with the webhook secret.',
  'errors.topUpNotAvailable': 'Top-ups are for pay-as-you-go accounts; your invoices are paid by card.',
  'errors.billingCountryLocked':
    'The billing country cannot be changed after a payment, because it sets the tax. Please contact support to change it.',
  'errors.paymentNotConfirmed':
    'The payment could not be confirmed yet. It will be confirmed shortly: check your billing page before paying again.',
  'errors.unknownApplication': 'One of the selected applications does not exist.',
  'errors.unknownCountry': 'Unknown country code.',
  'errors.unknownState': 'Unknown state for this country.',
  'errors.twoFactorEnrolmentRequired':
    'Your organization requires two-factor authentication. Set it up to continue.',
  'errors.ownTwoFactorRequired':
    'Turn on two-factor authentication for your own account before requiring it for your organization.',
} as const;

export type MessageKey = keyof typeof messages;

export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, value);
}

/** The English text of a key with its {{placeholders}} filled in (as i18next does in the web app). */
export function formatMessage(messageKey: MessageKey, values: Record<string, string | number>): string {
  return messages[messageKey].replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** The English text of a key, or the value itself when it is not a known key. */
export function messageText(keyOrText: string): string {
  return isMessageKey(keyOrText) ? messages[keyOrText] : keyOrText;
}
