import { SpfResultName, type SpfSenderResult } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { mailauthResolver } from '../../engine/message-analysis/checks/mailauth-resolver';

/*
 * A record that builds names from the sender is evaluated as a receiver would evaluate it, by
 * mailauth's RFC 7208 evaluator (the one that checks inbound mail here too), for the sending IPs
 * the product knows (ADR 037).
 */

/** The most time the evaluations of one check may take together: Verify DNS waits for them. */
const SENDER_EVALUATION_MS = 10_000;

/** mailauth starts its comments with the receiving host's name; this one is cut off again. */
const RECEIVER = 'receiver';

/** The envelope a receiver is assumed to see: the domain's postmaster, greeting with the domain itself. */
export const assumedEnvelope = (domain: string) => ({ sender: `postmaster@${domain}`, helo: domain });

async function evaluate(dns: DnsResolver, domain: string, ip: string): Promise<SpfSenderResult> {
  // Loaded on first use, as every start-up dependency only some jobs need (ADR 060): it adds to each start's time to first answer.
  const { spf } = await import('mailauth');
  const outcome = await spf({ ...assumedEnvelope(domain), ip, mta: RECEIVER, resolver: mailauthResolver(dns) });
  const result = SpfResultName.safeParse(outcome.status.result === 'temperr' ? 'temperror' : outcome.status.result);
  const comment = (outcome.status.comment ?? '').replace(`${RECEIVER}: `, '');
  return {
    ip,
    result: result.success ? result.data : 'temperror',
    reason: `${comment.charAt(0).toUpperCase()}${comment.slice(1)}.`,
  };
}

/** Each IP's result; an IP whose evaluation is still waiting for DNS when time is up gets temperror, as from a receiver that gave up. */
export async function evaluateForSenders(
  dns: DnsResolver,
  domain: string,
  ips: string[],
  timeoutMs = SENDER_EVALUATION_MS,
): Promise<SpfSenderResult[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.all(
      ips.map(
        async (ip): Promise<SpfSenderResult> =>
          (await Promise.race([evaluate(dns, domain, ip), deadline])) ?? {
            ip,
            result: 'temperror',
            reason: `The DNS lookups it needs gave no answer within ${timeoutMs / 1000} seconds.`,
          },
      ),
    );
  } finally {
    clearTimeout(timer);
  }
}
