import { cidr, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The networks each sending service (server/dmarc/sending-services.ts) publishes in its SPF include tree, as
 * its last good refresh found them: a DMARC source IP without a telling PTR name is named by the network it is
 * in. Shared by every user; a refresh replaces a service's rows at once and never empties them on a DNS failure.
 */
export const sendingServiceNetworks = pgTable(
  'sending_service_networks',
  {
    service: text().notNull(),
    network: cidr().notNull(),
    refreshedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.service, t.network] }),
    // Containment (network >>= ip) of many IPs at once.
    index('sending_service_networks_network_idx').using('gist', t.network.op('inet_ops')),
  ],
);
