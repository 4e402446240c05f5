import {
  storeNewEvents,
  writeOwnDayFigures,
  type NewEvent,
} from '../../../server/delivery-events/delivery-events.repo';
import type { Db } from '../../../server/platform/db/client';
import { utcDay } from '@contracts/utc-day';
import { inLanes, progress } from './progress';
import { seeded, type Random } from './random';
import { dayAgo, DAYS, type BenchDomain, type Tier } from './world';

/*
 * Delivery events for the last EVENT_DAYS days, as the ESP's event webhook stores them (storeNewEvents: the
 * events and their day rows in email_metrics, a domain's quarter per call), and before that the ESP's own daily
 * figures (writeOwnDayFigures, as its stats sync writes them) for the rest of the year.
 */

export const EVENT_DAYS = 90;
const SOURCE = 'sendgrid';

/** Recipients a domain mails in a day. */
const DAILY: Record<Tier, [number, number]> = { big: [40, 80], medium: [4, 10], small: [0, 1] };

/** Where recipients are, with their provider as the MX lookup names it (mailbox-provider.ts), by share. */
const RECIPIENT_DOMAINS: [string, string, number][] = [
  ['gmail.com', 'gmail', 0.42],
  ['outlook.com', 'outlook', 0.14],
  ['hotmail.com', 'outlook', 0.08],
  ['yahoo.com', 'yahoo', 0.12],
  ['icloud.com', 'apple', 0.08],
  ['gmx.de', 'gmx', 0.04],
  ['mail.ru', 'mailru', 0.03],
  ['corp.example', 'other', 0.09],
];

function recipientDomain(random: Random): [string, string] {
  let r = random.next();
  for (const [domain, provider, share] of RECIPIENT_DOMAINS) if ((r -= share) < 0) return [domain, provider];
  return ['corp.example', 'other'];
}

/** A day's events of one domain: most delivered, a few bounced (hard and soft), deferred or complained about. */
export function dayOfEvents(domain: BenchDomain, daysAgo: number, random: Random): NewEvent[] {
  const start = dayAgo(daysAgo).getTime();
  const events: NewEvent[] = [];
  for (let n = random.int(...DAILY[domain.tier]); n > 0; n--) {
    const [rcptDomain, provider] = recipientDomain(random);
    const base = {
      messageId: `<${daysAgo}.${n}.${random.int(0, 1e9)}@${domain.name}>`,
      recipient: `user${random.int(1, 50_000)}@${rcptDomain}`,
      domain: domain.name,
      recipientDomain: rcptDomain,
      mailboxProvider: provider,
      sendingIp: random.pick(domain.espIps),
      occurredAt: new Date(start + random.int(0, 86_399_000)),
    };
    const roll = random.next();
    if (roll < 0.012) {
      events.push({
        ...base,
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: '5.1.1',
        smtpResponse: '550 5.1.1 The email account that you tried to reach does not exist.',
      });
    } else if (roll < 0.02) {
      events.push({
        ...base,
        eventType: 'bounced',
        bounceClass: 'soft',
        enhancedStatus: '4.2.2',
        smtpResponse: '452 4.2.2 The email account that you tried to reach is over quota.',
      });
    } else {
      if (roll < 0.04)
        events.push({
          ...base,
          eventType: 'deferred',
          bounceClass: null,
          enhancedStatus: '4.7.0',
          smtpResponse: '421 4.7.0 Try again later, closing connection.',
        });
      events.push({
        ...base,
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: '2.0.0',
        smtpResponse: '250 2.0.0 OK',
      });
      if (random.chance(0.0008))
        events.push({ ...base, eventType: 'complaint', bounceClass: null, enhancedStatus: null, smtpResponse: null });
    }
  }
  return events;
}

/** The events of every domain's last EVENT_DAYS days, then the ESP's own figures for the days before. */
export async function fillEvents(db: Db, userId: number, domains: readonly BenchDomain[], seed: number, lanes: number) {
  const shown = progress('delivery events', domains.length);
  let stored = 0;
  await inLanes(domains, lanes, async (domain) => {
    const random = seeded(seed * 104_729 + domain.index);
    // A domain's days in one call: the webhook's batches are a day's at most, but one statement per domain is
    // what lets a thousand domains' quarter be stored in minutes.
    const events: NewEvent[] = [];
    for (let daysAgo = EVENT_DAYS; daysAgo >= 1; daysAgo--) events.push(...dayOfEvents(domain, daysAgo, random));
    const { count } = await storeNewEvents(db, userId, SOURCE, events, { returnKeys: false });
    stored += count;
    shown.step(stored);
  });
  shown.end(stored);

  const random = seeded(seed);
  const perDay = domains.reduce((sum, d) => sum + (DAILY[d.tier][0] + DAILY[d.tier][1]) / 2, 0);
  const days = Array.from({ length: DAYS - EVENT_DAYS }, (_, i) => {
    const emailsSent = Math.round(perDay * (0.8 + 0.4 * random.next()));
    const bounced = Math.round(emailsSent * 0.02);
    return {
      date: utcDay(dayAgo(EVENT_DAYS + 1 + i)),
      emailsSent,
      delivered: emailsSent - bounced,
      bounced,
      hardBounces: Math.round(bounced * 0.6),
      softBounces: bounced - Math.round(bounced * 0.6),
      deferred: Math.round(emailsSent * 0.02),
      complaints: Math.round(emailsSent * 0.0008),
      opens: Math.round(emailsSent * 0.3),
      clicks: Math.round(emailsSent * 0.03),
    };
  });
  await writeOwnDayFigures(db, userId, SOURCE, days);
}
