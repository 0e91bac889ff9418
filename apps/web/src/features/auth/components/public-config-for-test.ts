import type { PublicConfig } from '@portal/contracts';

/** The public configuration the sign-in pages' tests answer; each test changes what it is about. */
export const PUBLIC_CONFIG_FOR_TEST: PublicConfig = {
  productName: 'Social',
  googleSignIn: false,
  ssoSignIn: false,
  dashboardUrl: 'https://dashboard.example.com',
  helpLinks: {
    developerPortal: '',
    documentation: '',
    communityHub: '',
    faq: '',
    manageCommunity: '',
    createChannel: '',
  },
  regionBaseUrls: { SG: '/regions/sg', EU: '/regions/eu', US: '/regions/us' },
};
