export {
  cardSandboxPlugin,
  createCardSandboxApp,
  registerCardSandbox,
  PUBLISHABLE_KEY_PREFIX,
  SECRET_KEY_PREFIX,
  type CardSandboxOptions,
} from './app.ts';
export {
  CARD_BRANDS,
  TEST_CARD_BEHAVIOURS,
  detectBrand,
  passesLuhn,
  type CardBrand,
  type CardSummary,
} from './cards.ts';
export {
  openCardSandboxStore,
  CardSandboxStore,
  TOKEN_LIFETIME_MS,
  type CardSandboxStoreOptions,
  type SqlExecutor,
  type SqlQueryable,
} from './store.ts';
