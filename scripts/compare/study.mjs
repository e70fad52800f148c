// compare-real's cases as a study of the results page: `npm run reproduce` runs them after
// `txsim reproduce` and adds them to results.md and results.json (the papers view), beside the
// seeds' studies, with the raw JSON in reports/gossipsub-real.json.
import fs from 'node:fs';
import path from 'node:path';

export const STUDY_ID = 'gossipsub-real';
const TITLE = 'GossipSub next to @libp2p/gossipsub on the same network';
/** How close the duplicates should be; where they are not, DIFFERENCES says why. */
const TOLERANCE = 0.05;
const DIFFERENCES =
  'Both sides run the same graph, link latencies and publishing plan (`txsim network`) with D = 8, D_lo = 6, D_hi = 12 and the rest of ' +
  "@libp2p/gossipsub's defaults matched (D_lazy 6, heartbeat 1 s, mcache 5 windows with 3 gossiped, gossip factor 0.25, " +
  'IDONTWANT from 512 bytes, flood publish); the real nodes run on a virtual clock, so their latencies are the links\' and the ' +
  "protocol's, not the machine's. One difference mattered: @libp2p/gossipsub 17 grafts a peer the moment it subscribes while " +
  'the mesh is below D_lo, so its meshes fill to D_lo before any heartbeat and stay there (the mesh peers column) where the ' +
  "specs' routers graft up to D at the heartbeat. Without it txcast's meshes averaged 7.8 and 9.1 peers (degree 8 and 16, " +
  '100 nodes) and its duplicates were 18% and 26% above the real ones; the cases turn on txcast\'s `graft_on_subscribe`, ' +
  "which does the same. What is left: @libp2p/gossipsub keeps D_out = 2 outbound peers per mesh, and leaves out of its " +
  'forwarding the peers that sent it a copy while it validated the message; txcast has neither.';

/** The page's list of studies (after txsim's last line) names this one too, once. */
function withContentsLine(md) {
  const line = `- [${TITLE}](#${STUDY_ID})`;
  if (md.includes(`](#${STUDY_ID})`)) return md;
  const last = [...md.matchAll(/^- \[.*\]\(#[\w-]+\)$/gm)].at(-1);
  if (!last) return md;
  const at = last.index + last[0].length;
  return `${md.slice(0, at)}\n${line}${md.slice(at)}`;
}

const fmt = (x, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(digits));

/** Adds the study to `outDir`'s results.md and results.json (written by txsim reproduce). */
export function appendStudy(outDir, results, mode) {
  fs.mkdirSync(path.join(outDir, 'reports'), { recursive: true });
  fs.writeFileSync(path.join(outDir, 'reports', `${STUDY_ID}.json`), `${JSON.stringify({ study: STUDY_ID, cases: results })}\n`);
  const head = ['case', 'duplicates (real)', 'duplicates (sim)', 'real / sim', 'IHAVE ids (real / sim)', 'IWANT ids (real / sim)', 'delivery (real / sim)', 'latency p50 ms (real / sim)', 'latency p99 ms (real / sim)', 'mesh peers (real)'];
  const rows = results.map((r) => [
    `${r.nodes} nodes, degree ${r.degree}, ${r.messages} msgs`,
    fmt(r.real.duplicatesPerNodePerMessage),
    fmt(r.sim.duplicatesPerNodePerMessage),
    fmt(r.duplicatesRealOverSim),
    `${fmt(r.real.ihaveIdsPerNodePerMessage)} / ${fmt(r.sim.ihaveIdsPerNodePerMessage)}`,
    `${fmt(r.real.iwantIdsPerNodePerMessage)} / ${fmt(r.sim.iwantIdsPerNodePerMessage)}`,
    `${fmt(r.real.delivery, 4)} / ${fmt(r.sim.delivery, 4)}`,
    `${fmt(r.real.latencyMs.p50, 0)} / ${fmt(r.sim.latencyMs.p50, 0)}`,
    `${fmt(r.real.latencyMs.p99, 0)} / ${fmt(r.sim.latencyMs.p99, 0)}`,
    fmt(r.real.meshPeersMean, 2),
  ]);
  const within = results.filter((r) => Math.abs(r.duplicatesRealOverSim - 1) <= TOLERANCE).length;
  const checks = [
    { claim: `every real node gets every message (lowest delivery ${fmt(Math.min(...results.map((r) => r.real.delivery)), 4)})`, holds: results.every((r) => r.real.delivery >= 0.999) },
    { claim: `txcast's duplicates per node per message are within ${TOLERANCE * 100}% of the real ones (${within} of ${results.length} cases)`, holds: within === results.length },
  ];
  const files = results.map((r) => `${r.case}.json`);
  const mdPath = path.join(outDir, 'results.md');
  let md = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '';
  md = withContentsLine(md.replace(/\n<a id="gossipsub-real"><\/a>[\s\S]*$/, ''));
  md += `\n<a id="${STUDY_ID}"></a>\n## ${TITLE}\n\n`;
  md += `Source: \`npm run compare-real\` (${mode} mode): @libp2p/gossipsub ${results[0]?.jsVersion ?? ''} nodes in one Node.js process on in-memory links with each link's delay and a virtual clock, and txsim on the same scenario. Per node per message: duplicates, IHAVE and IWANT ids. Scenarios: ${files.map((f) => `\`scenarios/${f}\``).join(', ')}.\n\n`;
  md += `| ${head.join(' | ')} |\n|${'---|'.repeat(head.length)}\n`;
  for (const row of rows) md += `| ${row.join(' | ')} |\n`;
  md += '\n';
  for (const c of checks) md += `- ${c.claim}: ${c.holds ? 'holds' : '**does not hold**'}\n`;
  md += `\nWhere we differ: ${DIFFERENCES}\n`;
  const jsonPath = path.join(outDir, 'results.json');
  if (fs.existsSync(jsonPath)) {
    const index = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
    index.studies = index.studies.filter((s) => s.id !== STUDY_ID);
    index.studies.push({ id: STUDY_ID, title: TITLE, source: 'npm run compare-real', scenarios: files, changes: mode === 'quick' ? ['40 nodes, 3 s of load'] : [], head, rows, figure: null, checks: checks.map(({ claim, holds }) => ({ claim, holds })), differences: DIFFERENCES });
    fs.writeFileSync(jsonPath, JSON.stringify(index, null, 2));
    md = withTally(md, index.studies);
  }
  fs.writeFileSync(mdPath, md);
  return checks.every((c) => c.holds);
}

/** The page's count of directions that hold, over every study it lists (as the papers page counts). */
function withTally(md, studies) {
  const checks = studies.flatMap((s) => s.checks ?? []);
  const held = checks.filter((c) => c.holds).length;
  return md.replace(/Directions checked: \*\*\d+ of \d+ hold\*\*/, `Directions checked: **${held} of ${checks.length} hold**`);
}
