import { describe, expect, it } from 'vitest';
import { SEND_STRIDE } from '../../workers/protocol';
import { FLASH_US, LiveNet, livePositions, sortSends } from './netview';

const START = 1_000_000;

describe('LiveNet', () => {
  it('places this page at the centre and its peers on a ring, links to the connected ones', () => {
    const net = new LiveNet('self', START);
    net.setConnected(
      new Map([
        ['relay', 'relay'],
        ['b1', 'browser'],
        ['b2', 'browser'],
      ]),
    );
    net.node('gone');
    const trace = net.trace();
    expect(trace.nodes).toBe(5);
    expect([trace.positions[0], trace.positions[1]]).toEqual([0, 0]);
    const radius = Math.hypot(trace.positions[2], trace.positions[3]);
    expect(radius).toBeCloseTo(0.85, 5);
    // self-relay, self-b1, relay-b1, self-b2, relay-b2; the gone peer has no link.
    expect([...trace.edges]).toEqual([0, 1, 0, 2, 1, 2, 0, 3, 1, 3]);
    net.markHostile('b2');
    expect([...net.trace().adversaries]).toEqual([0, 0, 0, 1, 0]);
  });

  it('turns frames into sends the renderer flashes, split into payload and control', () => {
    const net = new LiveNet('self', START);
    net.wire('cat', 'in', 'p', 300, 250, START + 1000);
    net.wire('cat', 'out', 'p', 40, 0, START + 500);
    net.wire('gossipsub', 'out', 'q', 90, 90, START + 2500);
    const { sends, sendCount } = net.trace();
    expect(sendCount).toBe(3);
    // In start order: the incoming frame left the peer FLASH_US before it landed.
    const starts = Array.from({ length: 3 }, (_, i) => sends[i * SEND_STRIDE]);
    expect(starts).toEqual([500_000, 1_000_000 - FLASH_US, 2_500_000]);
    const o = SEND_STRIDE; // the incoming one: from the peer (1) to this page (0), 250 payload bytes
    expect([sends[o + 1], sends[o + 2], sends[o + 5], sends[o + 6]]).toEqual([1, 0, 250, 1_000_000]);
    expect(net.totals).toEqual([250, 50, 90, 40]);
    expect([net.payloadSends, net.controlSends]).toEqual([2, 1]);
    expect(net.bins.cat).toEqual([40, 300]);
    expect(net.bins.gossipsub).toEqual([0, 0, 90]);
    expect(net.busy(2_600_000)).toBe(true);
    expect(net.busy(10_000_000)).toBe(false);
  });

  it('gives the picked tx the simulator view: who has it, from where, and duplicates', () => {
    const net = new LiveNet('self', START);
    net.node('relay', 'relay');
    net.node('b1', 'browser');
    net.arrival('t1', 'b1', true, START + 2000, START + 1500);
    net.arrival('t1', 'relay', false, START + 2100);
    net.arrival('own', '', true, START + 3000);
    const view = net.txView('t1')!;
    expect(view.createdUs).toBe(1_500_000);
    expect(view.origin).toBe(2);
    expect(view.arrivalUs[0]).toBe(2_000_000);
    expect(view.arrivalUs[2]).toBe(1_650_000); // b1 sent it: it had it at least a flash earlier
    expect(view.arrivalUs[1]).toBe(1_750_000); // the relay's duplicate tells it had it too
    expect([...view.duplicates]).toEqual([2_100_000, 0]);
    expect(net.txView('own')!.origin).toBe(0);
    expect(net.txIds()).toEqual(['t1', 'own']);
    expect(net.txView('nope')).toBeNull();
  });

  it('sorts sends by start time and lays out an empty network', () => {
    const flat = [5, 1, 0, 0, 10, 0, 9, 0, -1, -1, 2, 0, 1, 0, 10, 10, 7, 0, -1, -1];
    expect(Array.from(sortSends(flat).filter((_, i) => i % SEND_STRIDE === 0))).toEqual([2, 5]);
    expect([...livePositions(1)]).toEqual([0, 0]);
  });
});
