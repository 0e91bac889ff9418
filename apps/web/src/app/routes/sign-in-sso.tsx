export { SsoSignInPage as Component } from '../../features/auth/components/sso-sign-in-page';
