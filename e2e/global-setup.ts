// The e2e tests compare the page with the native txsim: build it once before they start.
import { buildTxsim } from '../scripts/lib/bootstrap.mjs';

export default async function globalSetup(): Promise<void> {
  await buildTxsim();
}
