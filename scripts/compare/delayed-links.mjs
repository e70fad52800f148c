// An in-memory libp2p transport with a one-way delay per link, for running many real nodes in
// one process on a simulated network (compare-real.mjs). Node i listens on /memory/txcast-i;
// what i sends to j reaches j `delayMs(i, j)` later, in order (one timer per write). No
// bandwidth limit: the cases it serves send small messages.
import { serviceCapabilities, StreamResetError, transportSymbol } from '@libp2p/interface';
import { AbstractMultiaddrConnection } from '@libp2p/utils';
import { multiaddr } from '@multiformats/multiaddr';

const PREFIX = '/memory/txcast-';

/** The address node `index` listens on. */
export function linkAddress(index) {
  return multiaddr(`${PREFIX}${index}`);
}

/** One end of a link: writes reach the other end after the link's delay. */
class LinkEnd extends AbstractMultiaddrConnection {
  constructor(init, delayMs) {
    super(init);
    this.delayMs = delayMs;
    this.other = null;
  }

  later(fn) {
    setTimeout(fn, this.delayMs);
  }

  sendData(data) {
    const bytes = data.subarray();
    this.later(() => this.other?.onData(bytes));
    return { sentBytes: bytes.byteLength, canSendMore: true };
  }

  sendReset() {
    this.later(() => this.other?.abort(new StreamResetError()));
  }

  async sendClose(options) {
    this.later(() => this.other?.onTransportClosed());
    options?.signal?.throwIfAborted();
  }

  sendPause() {}

  sendResume() {}
}

/**
 * Transports for a network of nodes 0..n-1 in this process: `delayedLinks(delayMs)` gives
 * `transportFor(index)`, the factory to put in node `index`'s `transports`.
 */
export function delayedLinks(delayMs) {
  const listeners = new Map();

  class Listener extends EventTarget {
    constructor(index, upgrader) {
      super();
      this.index = index;
      this.upgrader = upgrader;
      this.shutdown = new AbortController();
    }

    async listen() {
      listeners.set(this.index, this);
      queueMicrotask(() => this.dispatchEvent(new Event('listening')));
    }

    getAddrs() {
      return [linkAddress(this.index)];
    }

    updateAnnounceAddrs() {}

    async close() {
      listeners.delete(this.index);
      this.shutdown.abort();
      queueMicrotask(() => this.dispatchEvent(new Event('close')));
    }
  }

  class Transport {
    [transportSymbol] = true;
    [Symbol.toStringTag] = 'txcast/delayed-links';
    [serviceCapabilities] = ['@libp2p/transport'];

    constructor(components, index) {
      this.components = components;
      this.index = index;
    }

    async dial(ma, options) {
      options.signal?.throwIfAborted();
      const to = Number(ma.toString().slice(PREFIX.length).split('/')[0]);
      const listener = listeners.get(to);
      if (listener === undefined) throw new Error(`no node listens at ${ma}`);
      const log = this.components.logger.forComponent('txcast:delayed-links');
      const out = new LinkEnd({ remoteAddr: linkAddress(to), direction: 'outbound', log }, delayMs(this.index, to));
      const inn = new LinkEnd({ remoteAddr: linkAddress(this.index), direction: 'inbound', log }, delayMs(to, this.index));
      out.other = inn;
      inn.other = out;
      listener.upgrader.upgradeInbound(inn, { signal: listener.shutdown.signal }).catch((err) => inn.abort(err));
      try {
        return await options.upgrader.upgradeOutbound(out, options);
      } catch (err) {
        out.abort(err);
        throw err;
      }
    }

    createListener(options) {
      return new Listener(this.index, options.upgrader);
    }

    listenFilter(addrs) {
      return addrs.filter((ma) => ma.toString().startsWith(PREFIX));
    }

    dialFilter(addrs) {
      return this.listenFilter(addrs);
    }
  }

  return (index) => (components) => new Transport(components, index);
}
