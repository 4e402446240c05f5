// What other capabilities may ask of the mailbox-provider table: whose server a host name is. The
// providers name their outgoing servers under the domains of their MX hosts (mail-sor-f41.google.com),
// so suggested IPs leave out the servers of Gmail, Outlook and the others by their PTR name.
export { providerOfMxHost } from './mailbox-provider';
