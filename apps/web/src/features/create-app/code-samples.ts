import type { RegionKey } from '@portal/contracts';

export const PLATFORMS = ['ios', 'android', 'flutter', 'react-native', 'react'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What the developer integrates (§3 product types): the ready-made UI kit or the bare SDK. */
export const PRODUCT_TYPES = ['uikit', 'sdk'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export interface CodeSample {
  /** Which part of the integration the snippet is: adding the package, or starting the client. */
  kind: 'install' | 'initialize';
  language: string;
  code: string;
}

interface SampleContext {
  apiKey: string;
  region: RegionKey;
}

/** Package names per platform and product type; the SDK and UI kit are the platform's own. */
const PACKAGES: Record<Platform, Record<ProductType, string>> = {
  ios: { uikit: 'SocialPlatformUIKit', sdk: 'SocialPlatformSDK' },
  android: { uikit: 'com.socialplatform:uikit-android:4.2.0', sdk: 'com.socialplatform:sdk-android:6.8.0' },
  flutter: { uikit: 'social_platform_uikit', sdk: 'social_platform_sdk' },
  'react-native': { uikit: '@social-platform/uikit-react-native', sdk: '@social-platform/sdk' },
  react: { uikit: '@social-platform/uikit-react', sdk: '@social-platform/sdk' },
};

const IOS_REPOSITORY = 'https://github.com/social-platform/ios-sdk';

function iosSamples(type: ProductType, apiKey: string, region: string): CodeSample[] {
  const pkg = PACKAGES.ios[type];
  const client = type === 'uikit' ? 'SocialUIKitManager' : 'SocialClient';
  return [
    {
      kind: 'install',
      language: 'swift',
      code: `// Package.swift (Swift Package Manager)\n.package(url: "${IOS_REPOSITORY}", from: "6.8.0")\n\n// or Podfile (CocoaPods)\npod '${pkg}'`,
    },
    {
      kind: 'initialize',
      language: 'swift',
      code: `import ${pkg}\n\nfunc application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {\n    try? ${client}.setup(apiKey: "${apiKey}", region: .${region})\n    return true\n}`,
    },
  ];
}

function androidSamples(type: ProductType, apiKey: string, region: string): CodeSample[] {
  const client = type === 'uikit' ? 'SocialUIKitClient' : 'SocialClient';
  const importPath = type === 'uikit' ? 'com.socialplatform.uikit' : 'com.socialplatform.sdk';
  return [
    {
      kind: 'install',
      language: 'kotlin',
      code: `// app/build.gradle.kts\ndependencies {\n    implementation("${PACKAGES.android[type]}")\n}`,
    },
    {
      kind: 'initialize',
      language: 'kotlin',
      code: `import ${importPath}.${client}\nimport com.socialplatform.sdk.Region\n\nclass App : Application() {\n    override fun onCreate() {\n        super.onCreate()\n        ${client}.setup(this, apiKey = "${apiKey}", region = Region.${region.toUpperCase()})\n    }\n}`,
    },
  ];
}

function flutterSamples(type: ProductType, apiKey: string, region: string): CodeSample[] {
  const pkg = PACKAGES.flutter[type];
  const client = type === 'uikit' ? 'SocialUIKit' : 'SocialClient';
  return [
    { kind: 'install', language: 'yaml', code: `# pubspec.yaml\ndependencies:\n  ${pkg}: ^6.8.0` },
    {
      kind: 'initialize',
      language: 'dart',
      code: `import 'package:${pkg}/${pkg}.dart';\n\nFuture<void> main() async {\n  WidgetsFlutterBinding.ensureInitialized();\n  await ${client}.setup(apiKey: '${apiKey}', region: SocialRegion.${region});\n  runApp(const MyApp());\n}`,
    },
  ];
}

function javascriptSamples(
  platform: 'react-native' | 'react',
  type: ProductType,
  apiKey: string,
  region: string,
): CodeSample[] {
  const pkg = PACKAGES[platform][type];
  const install: CodeSample = { kind: 'install', language: 'bash', code: `npm install ${pkg}` };
  if (type === 'sdk') {
    return [
      install,
      {
        kind: 'initialize',
        language: 'javascript',
        code: `import { SocialClient } from '${pkg}';\n\nconst client = SocialClient.setup({ apiKey: '${apiKey}', region: '${region}' });\nawait client.login({ userId: 'alice', displayName: 'Alice' });`,
      },
    ];
  }
  return [
    install,
    {
      kind: 'initialize',
      language: 'tsx',
      code: `import { SocialUiKitProvider } from '${pkg}';\n\nexport default function App() {\n  return (\n    <SocialUiKitProvider apiKey="${apiKey}" region="${region}" userId="alice" displayName="Alice">\n      {/* your screens */}\n    </SocialUiKitProvider>\n  );\n}`,
    },
  ];
}

/**
 * The install and initialisation snippets shown on the setup step, with the application's API key
 * and region written in so they can be pasted as they are. Regions are written in lower case, as
 * the SDKs and the sample client name them.
 */
export function codeSamples(
  platform: Platform,
  type: ProductType,
  { apiKey, region }: SampleContext,
): CodeSample[] {
  const regionName = region.toLowerCase();
  switch (platform) {
    case 'ios':
      return iosSamples(type, apiKey, regionName);
    case 'android':
      return androidSamples(type, apiKey, regionName);
    case 'flutter':
      return flutterSamples(type, apiKey, regionName);
    case 'react-native':
    case 'react':
      return javascriptSamples(platform, type, apiKey, regionName);
  }
}

/**
 * The sample client command that makes a first SDK session, proving the integration works. The
 * portal's address is passed because the client otherwise assumes a portal on localhost:3000; a
 * region at its own address (an absolute base in the public configuration) is named by the
 * REGION_*_URL the client reads, as the portal does not host it.
 */
export function sampleClientCommand(
  region: RegionKey,
  apiKey: string,
  portalOrigin: string,
  regionBaseUrl: string,
): string {
  const command = `npm run sdk -- ping --region ${region.toLowerCase()} --api-key ${apiKey} --user alice --base-url ${portalOrigin}`;
  return regionBaseUrl.startsWith('/') ? command : `REGION_${region}_URL=${regionBaseUrl} ${command}`;
}
