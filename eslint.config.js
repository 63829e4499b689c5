import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// A package is used by its name and the subpaths its package.json exports, never by its src/ files:
// test/rules/package-boundaries.test.ts checks the same over every file, including the relative paths.
const noDeepImports = {
  group: ['@mo/*/src', '@mo/*/src/**'],
  message: 'Import the package by its name or an exported subpath (see its package.json "exports").',
};

// The web app talks to the service only through its HTTP contract: the typed client and the shared
// schemas. Reaching into the core or the API would bundle server code into the browser and tie the
// UI to internals the contract is there to hide.
const webBoundaries = [
  {
    group: [
      '@mo/core',
      '@mo/core/*',
      '@mo/api',
      '@mo/api/*',
      '@mo/worker',
      '@mo/worker/*',
      '@mo/test-support',
      '@mo/test-support/*',
      '**/packages/**',
      '**/apps/api/**',
      '**/apps/worker/**',
    ],
    message: 'The web app uses only @mo/api-client and @mo/shared.',
  },
];

const nodeGlobals = { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/*.gen.ts', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-duplicates': 'error',
      'import-x/no-relative-packages': 'error',
      'no-restricted-imports': ['error', { patterns: [noDeepImports] }],
      // The codebase names what it drops on purpose with a leading underscore ({ secret: _s, ...rest }).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `cond ? a() : b()` as a statement is this codebase's idiom for a two-way call.
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true, allowShortCircuit: true }],
      // Safe names, notices and release names are cleaned of control characters: matching them is the point.
      'no-control-regex': 'off',
      // Flags the initial value of a variable that a try block assigns and its catch leaves as it was.
      'no-useless-assignment': 'off',
      // Errors raised in place of a caught one restate it in their message, which is what the API and
      // the logs show; attaching `cause` everywhere is a change of its own, not a lint fix.
      'preserve-caught-error': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: nodeGlobals } },
  {
    // Tests read untyped JSON answers and poke at internals; `any` there keeps them short.
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['apps/web/src/**'], rules: { 'no-restricted-imports': ['error', { patterns: [noDeepImports, ...webBoundaries] }] } },
  {
    // Pages are the web app's features: the shared pieces (components, the API layer) never depend on one.
    files: ['apps/web/src/components/**', 'apps/web/src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepImports, ...webBoundaries, { group: ['**/pages/**'], message: 'Shared web code does not depend on a page.' }] },
      ],
    },
  },
);
