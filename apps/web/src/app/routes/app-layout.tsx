export { AppLayout as Component } from '../../features/layout/components/app-layout';
