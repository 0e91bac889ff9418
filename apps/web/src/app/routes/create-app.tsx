export { CreateAppPage as Component } from '../../features/create-app/components/create-app-page';
