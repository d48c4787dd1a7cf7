import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { addressAllowed, OutboundBlockedError, type OutboundPolicy } from './outbound-fetch.ts';

type Callback = (error: Error | null, socket?: Socket) => void;

/** Keeps only the addresses DNS returned that the policy allows for this port (DNS rebinding included). */
function policyLookup(policy: OutboundPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((a) => addressAllowed(policy, hostname, port, a.address));
      if (usable.length === 0) return callback(new OutboundBlockedError(hostname), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * Node `http`/`https` agents that obey the outbound policy, for clients built on `node:http` rather than fetch (the
 * WebDAV client): the same check as `createOutboundFetch`, on the addresses DNS returned, and on IP literals (which
 * never reach `lookup`) before connecting. Redirects use the same agents.
 */
export function outboundAgents(policy: OutboundPolicy): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const guard = <A extends http.Agent>(agent: A, defaultPort: number): A => {
    const create = (agent as unknown as { createConnection: (o: object, cb: Callback) => Socket | undefined })
      .createConnection;
    Object.assign(agent, {
      createConnection(this: A, options: { host?: string; port?: number | string }, callback: Callback) {
        const port = Number(options.port) || defaultPort;
        const host = (options.host ?? '').replace(/^\[(.*)\]$/, '$1');
        if (isIP(host) && !addressAllowed(policy, host, port, host)) {
          callback(new OutboundBlockedError(host));
          return undefined;
        }
        return create.call(this, { ...options, lookup: policyLookup(policy, port) }, callback);
      },
    });
    return agent;
  };
  return {
    httpAgent: guard(new http.Agent({ keepAlive: false }), 80),
    httpsAgent: guard(new https.Agent({ keepAlive: false }), 443),
  };
}
