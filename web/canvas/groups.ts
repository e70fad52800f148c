// The inspected node's groups of peers (a GossipSub mesh, its fanout), as the engine's
// `inspect` names them: read from the inspection's flat fields, and drawn around the node.
import type { Inspection } from '../../workers/protocol';

export interface PeerGroup {
  name: string;
  nodes: number[];
}

/** The inspected node and its groups, as every panel draws them. */
export interface Highlight {
  node: number;
  groups: PeerGroup[];
}

export function peerGroups(data: Pick<Inspection, 'group_names' | 'group_nodes' | 'group_ends'>): PeerGroup[] {
  let start = 0;
  return data.group_names.map((name, i) => {
    const end = data.group_ends[i];
    const nodes = Array.from(data.group_nodes.slice(start, end));
    start = end;
    return { name, nodes };
  });
}

/** Colours of the groups drawn, by name (others get the last): apart from the arrival scale and the marks. */
export const GROUP_COLOURS: Record<string, string> = { mesh: '#ff4fd8', fanout: '#9ad0ff', other: '#ffffff' };
