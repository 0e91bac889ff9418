export { EmailExpiredPage as Component } from '../../features/auth/components/email-expired-page';
