// A STUN server for the light node's WebRTC tests, run inside the test's network namespace:
//   node scripts/lib/stun-server.mjs --host 10.213.2.1 [--port 3478]
// It answers Binding requests (node-turn) and prints "listening on HOST:PORT", then
// "binding N" for the N-th request it answered, so a test can tell that the pages asked it.
// TURN allocations need credentials that nobody is given: this is STUN only.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import Turn from 'node-turn';

const { values } = parseArgs({ options: { host: { type: 'string' }, port: { type: 'string', default: '3478' } } });
if (!values.host) {
  console.error('stun-server: --host ADDR is required');
  process.exit(2);
}
const port = Number(values.port);

const server = new Turn({
  listeningIps: [values.host],
  listeningPort: port,
  authMech: 'long-term',
  credentials: { [crypto.randomUUID()]: crypto.randomUUID() },
  debugLevel: 'INFO',
  // node-turn says when its socket listens (INFO) and why it failed (FATAL); nothing else at INFO.
  log: (line) => {
    const text = String(line);
    if (text.startsWith('Server is listening on ')) console.log(`listening on ${values.host}:${port}`);
    else if (!text.startsWith('Server is no more listening')) console.error(`stun-server: ${text}`);
  },
});
let bindings = 0;
server.on('binding', () => console.log(`binding ${(bindings += 1)}`));
server.start();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (server.stop(), process.exit(0)));
