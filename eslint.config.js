// ESLint (flat config) with typescript-eslint's type-checked rules over src/, test/ and bench/.
// Formatting is Prettier's job (.prettierrc.json); nothing here is about layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.bench/**',
      'test-artifacts/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Unused arguments named with a leading underscore are part of a signature on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // A `let` assigned once, after closures that read it were made (server.ts's scheduler and
      // OpenAPI document, webhooks.ts's recorder): as a const it would be in its temporal dead
      // zone when such a closure runs early, a ReferenceError instead of `undefined`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // The family display's script runs in the browser (src/display/tsconfig.json: ES2017, the
    // DOM, no Node types; the project service finds that tsconfig for these files): the
    // browser's globals, and none of Node's or those newer than Safari 12 and Chrome 80.
    files: ['src/display/**/*.ts'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'navigator',
          'localStorage',
          'fetch',
          'EventSource',
          'setTimeout',
          'clearTimeout',
          'setInterval',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: {
      'no-restricted-globals': [
        'error',
        'process',
        'Buffer',
        'require',
        'globalThis',
        'structuredClone',
        'queueMicrotask',
      ],
    },
  },
  {
    // Tests read the wire: response bodies are untyped JSON that the assertions themselves
    // check, so typing every body (or casting it) would only hide what the test asserts.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // chai's property assertions (`expect(x).to.be.true`) are expressions on purpose.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
