import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { boundaryViolation, webBoundaries } from './web-boundaries.mjs';

const SRC = path.resolve('/repo/apps/web/src');
const file = (relative: string) => path.join(SRC, relative);

describe('boundaryViolation', () => {
  it('lets a feature import its own files and the shared layers', () => {
    const importer = file('features/members/components/member-list.tsx');
    for (const imported of [
      'features/members/api/list-members.ts',
      'api/applications/list-applications.ts',
      'components/plain/buttons.tsx',
      'lib/i18n.tsx',
      'locales/en.ts',
    ])
      expect(boundaryViolation(SRC, importer, file(imported))).toBeNull();
  });

  it('refuses one feature importing another, and features importing app/', () => {
    const importer = file('features/members/components/role-and-access-fields.tsx');
    expect(boundaryViolation(SRC, importer, file('features/applications/application-list.ts'))).toMatch(
      /"members" imports the feature "applications"/,
    );
    expect(boundaryViolation(SRC, importer, file('app/router.tsx'))).toMatch(
      /features\/ may not import app\//,
    );
  });

  it('refuses lib/, components/ and api/ importing features, and lib/ importing components/', () => {
    const feature = file('features/applications/application-list.ts');
    expect(boundaryViolation(SRC, file('lib/account.ts'), feature)).not.toBeNull();
    expect(boundaryViolation(SRC, file('components/page-loader.tsx'), feature)).not.toBeNull();
    expect(boundaryViolation(SRC, file('api/applications/get-application.ts'), feature)).not.toBeNull();
    expect(boundaryViolation(SRC, file('lib/toasts.ts'), file('components/toast-host.tsx'))).not.toBeNull();
    expect(boundaryViolation(SRC, file('components/page-loader.tsx'), file('lib/i18n.tsx'))).toBeNull();
  });

  it('lets app/ import anything and ignores files outside src/', () => {
    expect(
      boundaryViolation(SRC, file('app/router.tsx'), file('features/auth/navigation-state.ts')),
    ).toBeNull();
    expect(boundaryViolation(SRC, '/repo/e2e/support/ui.ts', file('features/auth/x.ts'))).toBeNull();
  });
});

describe('the web-boundaries/layers rule', () => {
  const linter = new Linter({ configType: 'flat', cwd: '/repo' });
  const lint = (code: string, filename: string) =>
    linter.verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { 'web-boundaries': webBoundaries(SRC) },
          rules: { 'web-boundaries/layers': 'error' },
        },
      ],
      filename,
    );

  it('reports static, dynamic and re-exporting imports across a boundary, by their resolved path', () => {
    const importer = file('features/members/components/fields.ts');
    const messages = lint(
      [
        "import { useApplications } from '../../applications/api/list-applications';",
        "export { x } from '../../auth/x';",
        "const lazy = () => import('../../create-app/steps');",
        "import { t } from '../../../lib/i18n';",
        "import { z } from 'zod';",
      ].join('\n'),
      importer,
    );
    expect(messages.map((message) => message.line)).toEqual([1, 2, 3]);
    expect(messages[0]!.message).toMatch(
      /^Crosses a web boundary: the feature "members" imports the feature "applications"/,
    );
  });
});
