export {
  createRegionApp,
  registerRegions,
  regionsPlugin,
  defaultRegionPrefix,
  DEFAULT_PROVISIONING_DELAY_MS,
  type RegionsOptions,
} from './app.ts';
export { sameSecret } from './secret.ts';
export {
  openRegionStore,
  RegionStore,
  type RegionStoreOptions,
  type SqlExecutor,
  type StoredNetwork,
} from './store.ts';
export { regionBaseUrl, createSdkSession } from './sdk-client.ts';
