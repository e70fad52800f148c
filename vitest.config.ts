import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['web/**/*.test.ts', 'workers/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['web/wasm/**', 'node_modules/**'],
    environment: 'node',
    // The boundary test may have to build the native txsim first.
    hookTimeout: 600_000,
  },
});
