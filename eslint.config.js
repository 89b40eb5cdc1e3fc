// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'client/src/schema.ts', 'client/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Fastify handlers and interface implementations are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Small functions and files: a function that outgrows 60 lines, or a file 250, is split into named steps.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 250, skipBlankLines: true, skipComments: true }],
    },
  },
  // Layers (docs/architecture.md): http, cli and console → services → domain and infrastructure. A lower layer never
  // imports a higher one. Relative specifiers are matched, so each rule names folders no lower layer contains.
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/infrastructure/**',
                '**/services/**',
                '**/http/**',
                '**/cli/**',
                '**/console/**',
                '**/portal/**',
                '**/app.js',
              ],
              message: 'The domain is pure rules: it imports no layer above it (see docs/architecture.md).',
            },
            { group: ['fastify', 'kysely', 'pg', 'pg-boss'], message: 'The domain holds no framework or I/O types.' },
            {
              group: ['**/contract/**'],
              allowTypeImports: true,
              message: 'The domain may name a wire type (Static of a contract schema), never load the schemas.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/infrastructure/**',
                '**/services/**',
                '**/http/**',
                '**/cli/**',
                '**/console/**',
                '**/portal/**',
                'fastify',
              ],
              message: 'Wire schemas are shared by http and services: they import only TypeBox, the domain and errors.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/infrastructure/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/services/**',
                '**/http/**',
                '**/cli/**',
                '**/console/**',
                '**/portal/**',
                '**/app.js',
                '**/composition.js',
              ],
              message: 'Infrastructure is called by services, never the other way (see docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // services/console exists (the console's use cases), so src/console cannot be told apart by a relative path here.
    files: ['src/services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/cli/**', '**/app.js', '**/composition.js', 'fastify'],
              message:
                'Services know nothing of transports: HTTP, CLI and console call them (see docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and measurements read JSON bodies of arbitrary shape; asserting on them is what they are for.
    files: ['test/**', 'bench/**', 'client/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    // The console's progressive-enhancement script runs in the browser.
    files: ['src/console/static/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  prettier,
);
