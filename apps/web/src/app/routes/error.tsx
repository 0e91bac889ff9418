export { ErrorPage as Component } from '../../components/error-page';
