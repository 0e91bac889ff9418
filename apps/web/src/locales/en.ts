import { messages, type MessageKey } from '@portal/contracts';

/**
 * The web app's own wording for the pages anyone may open; the signed-in pages' wording is in
 * en-signed-in.ts and loads with them (decision 012). Validation and error wording lives in the
 * contracts' `messages` (shared with the API); a key here must not repeat one of those.
 */
const uiText = {
  'app.name': 'Developer Portal',
  'app.pageTitle': '{{page}} | Developer Portal',

  'common.backHome': 'Back Home',
  'common.close': 'Close',
  'common.loading': 'Loading',

  'page.home': 'Home',
  'page.login': 'Sign in',
  'page.signup': 'Sign up',
  'page.signInSso': 'Sign in with SSO',
  'page.verifyEmail': 'Verify your email',
  'page.confirmUser': 'Confirm your email',
  'page.emailExpired': 'Verification link expired',
  'page.passwordReset': 'Reset password',
  'page.passwordRenew': 'Choose a new password',
  'page.logout': 'Signed out',
  'page.error': 'Error',
  'page.setupOrganization': 'Set up your organization',
  'page.apps': 'Applications',
  'page.createApp': 'Create application',
  'page.billing': 'Billing',
  'page.transaction': 'Transaction',
  'page.payment': 'Payment',
  'page.managePayment': 'Manage payment',
  'page.subscription': 'Subscription and licenses',
  'page.singleSignOn': 'Single sign-on',
  'page.auditLog': 'Audit log',
  'page.manageMembers': 'Manage members',
  'page.editMember': 'Edit member',
  'page.inviteMembers': 'Invite members',
  'page.editProfile': 'Edit profile',
  'page.twoFactor': 'Two-factor authentication',
  'page.twoFactorSetup': 'Set up two-factor authentication',
  'page.tutorial': 'Tutorial guide',

  'auth.email': 'Email',
  'auth.password': 'Password',
  'auth.showPassword': 'Show password',
  'auth.google': 'Continue with Google',
  'auth.or': 'or',
  'auth.backToLogin': 'Back to sign in',
  'auth.corporate.signUpLink': 'Sign up with your corporate email',
  'auth.google.cancelled': 'Google sign-in was cancelled. Try again, or use your email and password.',
  'auth.google.failed': 'Google sign-in did not finish. Please try again.',

  'login.title': 'Sign in to your account',
  'login.forgotPassword': 'Forgot password?',
  'login.submit': 'Sign in',
  'login.sso': 'Sign in with SSO',
  'login.noAccount': 'New to the portal?',
  'login.signUpLink': 'Create an account',

  'twoFactor.signIn.title': 'Two-factor authentication',
  'twoFactor.signIn.totpIntro': 'Enter the 6-digit code your authenticator app shows for this account.',
  'twoFactor.signIn.backupIntro':
    'Enter one of the backup codes you saved when you set up two-factor authentication. Each code works once.',
  'twoFactor.signIn.totpCode': 'Authentication code',
  'twoFactor.signIn.backupCode': 'Backup code',
  'twoFactor.signIn.submit': 'Verify',
  'twoFactor.signIn.useBackupCode': 'Use a backup code instead',
  'twoFactor.signIn.useTotp': 'Use your authenticator app instead',

  'signup.title': 'Create your account',
  'signup.email': 'Corporate email',
  'signup.emailHint': 'Use your work address; personal email providers are not accepted.',
  'signup.submit': 'Sign up',
  'signup.haveAccount': 'Already have an account?',
  'signup.signInLink': 'Sign in',

  'password.strength.label': 'Password strength: {{level}}',
  'password.strength.low': 'Low',
  'password.strength.medium': 'Medium',
  'password.strength.high': 'High',

  'sso.title': 'Sign in with SSO',
  'sso.intro': 'Enter your organization domain to continue with your identity provider.',
  'sso.domain': 'Organization domain',
  'sso.domainRules': 'Organization domain rules',
  'sso.submit': 'Continue',
  'sso.refusedGeneral':
    'Single sign-on could not sign you in. Please try again; if it keeps failing, ask your administrator.',

  'verifyEmail.title': 'Verify your email',
  'verifyEmail.sent':
    'We sent a verification email to <strong>{{email}}</strong>. Open the link in it, or enter the code it contains.',
  'verifyEmail.code': 'Verification code',
  'verifyEmail.submit': 'Verify email',
  'verifyEmail.noMail': 'Did not get the email?',
  'verifyEmail.resend': 'Send it again',
  'verifyEmail.resent': 'We sent you a new verification email.',
  'verifyEmail.success': 'Your email is verified. You can sign in now.',

  'confirmUser.title': 'Confirm your email',
  'confirmUser.verifying': 'Verifying your email',

  'emailExpired.title': 'Your verification link has expired',
  'emailExpired.intro': 'Enter your email and we will send you a new verification link.',
  'emailExpired.submit': 'Send a new link',

  'passwordReset.title': 'Reset your password',
  'passwordReset.intro': 'Enter your email and we will send you a link to choose a new password.',
  'passwordReset.submit': 'Send reset link',
  'passwordReset.sentTitle': 'Check your email',
  'passwordReset.sent':
    'If an account exists for <strong>{{email}}</strong>, we sent it a link to choose a new password.',

  'passwordRenew.title': 'Choose a new password',
  'passwordRenew.password': 'New password',
  'passwordRenew.confirmPassword': 'Confirm new password',
  'passwordRenew.submit': 'Save new password',
  'passwordRenew.success': 'Your password has been changed. Sign in with your new password.',
  'passwordRenew.requestNewLink': 'Request a new reset link',

  'logout.title': 'You are logged out.',
  'errorPage.title': 'Sorry, something went wrong.',
  'errorPage.backToLogin': 'Back to login',
  'forbidden.title': 'Forbidden',
  'forbidden.text': 'You do not have permission to access this page.',
  'notFound.title': 'Page not found',
  'notFound.text': 'The page you are looking for does not exist or has moved.',

  'invitation.signup.title': 'Join your organization',
  'invitation.signup.heading': 'Join {{organization}}',
  'invitation.signup.intro':
    'You have been invited to join <strong>{{organization}}</strong> as <strong>{{email}}</strong>. Choose your display name and a password to create your account.',
  'invitation.signup.confirmPassword': 'Confirm password',
  'invitation.signup.submit': 'Create account',
  'invitation.expired.title': 'The invitation link has expired',
  'invitation.expired.text': 'Please contact your organization admin to send you a new invitation.',
  'invitation.invalid.title': 'This invitation link is not valid',
  'invitation.invalid.text': 'Please check the link in your email or contact your organization admin.',

  'appName.counter': '{{length}}/{{max}}',

  'payment.backToBilling': 'Back to billing',
} as const satisfies Record<string, string> & { [key in MessageKey]?: never };

export const en = { ...messages, ...uiText };
