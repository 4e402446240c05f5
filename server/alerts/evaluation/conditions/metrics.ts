import { DELIVERY_CRITICAL, DELIVERY_WARNING, VOLUME_DOWN, VOLUME_UP } from './thresholds';
import { round, type EvaluationData, type Measured } from './shared';
import { metricsAnchor, readMetric } from './metric-readings';

/* The daily e-mail figures: bounce, complaint and delivery rates and volume change. */

export function metricConditions({ metrics, today, settings }: EvaluationData): Measured[] {
  const anchor = metricsAnchor(metrics, today);
  if (!anchor) return [];
  const out: Measured[] = [];
  const bounce = readMetric('bounce', metrics, anchor, today, 1);
  if (bounce) {
    const t = settings.bounceThreshold;
    const severity = bounce.value > 2 * t ? 'critical' : bounce.value > t ? 'warning' : null;
    out.push({
      key: 'metrics:bounce',
      recovered: `the bounce rate is ${bounce.value}% (threshold ${t}%).`,
      alert: severity && {
        type: 'bounce',
        severity,
        title: `Bounce rate ${bounce.value}%`,
        message: `${bounce.words}: a bounce rate of ${bounce.value}%, above your ${t}% threshold. Remove invalid and inactive addresses and check where the list came from.`,
        measure: 'Bounce rate',
        unit: '%',
        metadata: { value: bounce.value, threshold: t, critical: 2 * t, ...bounce.facts, window: '1 day' },
      },
    });
  }
  const spam = readMetric('complaints', metrics, anchor, today, 1);
  if (spam) {
    const t = settings.spamThreshold;
    const severity = spam.value > 2 * t ? 'critical' : spam.value > t ? 'warning' : null;
    out.push({
      key: 'metrics:complaints',
      recovered: `the spam complaint rate is ${spam.value}% (threshold ${t}%).`,
      alert: severity && {
        type: 'spam',
        severity,
        title: `Spam complaint rate ${spam.value}%`,
        message: `${spam.words}: ${spam.value}%, above your ${t}% threshold. Mail only people who asked for it, make unsubscribing one click, and slow down sends to unengaged recipients.`,
        measure: 'Spam complaint rate',
        unit: '%',
        metadata: { value: spam.value, threshold: t, critical: round(2 * t, 2), ...spam.facts, window: '1 day' },
      },
    });
  }
  const delivery = readMetric('delivery', metrics, anchor, today, 1);
  if (delivery) {
    const severity =
      delivery.value < DELIVERY_CRITICAL ? 'critical' : delivery.value < DELIVERY_WARNING ? 'warning' : null;
    out.push({
      key: 'metrics:delivery',
      recovered: `the delivery rate is ${delivery.value}% (threshold ${DELIVERY_WARNING}%).`,
      alert: severity && {
        type: 'deliverability',
        severity,
        title: `Delivery rate ${delivery.value}%`,
        message: `${delivery.words}: ${delivery.value}%, below ${DELIVERY_WARNING}%. Look at the bounce reasons in your provider: blocks point to reputation or authentication, unknown users to the list.`,
        measure: 'Delivery rate',
        unit: '%',
        metadata: {
          value: delivery.value,
          threshold: DELIVERY_WARNING,
          critical: DELIVERY_CRITICAL,
          ...delivery.facts,
          window: '1 day',
        },
      },
    });
  }
  const volume = readMetric('volumeUp', metrics, anchor, today, 1);
  if (volume) {
    const up = volume.value >= VOLUME_UP;
    const down = volume.value <= VOLUME_DOWN;
    const change = `${volume.value > 0 ? '+' : ''}${volume.value}%`;
    out.push({
      key: 'metrics:volume',
      recovered: `sending volume changed ${change} against the day before, within ${VOLUME_DOWN}% to +${VOLUME_UP}%.`,
      alert:
        up || down
          ? {
              type: 'suspicious_activity',
              severity: 'warning',
              title: `Sending volume ${up ? 'up' : 'down'} ${Math.abs(volume.value)}%`,
              message: up
                ? `${volume.words} (${change}). If you did not plan this, check for a compromised account or API key; a sudden rise also hurts reputation, so ramp up gradually.`
                : `${volume.words} (${change}). Check that your sending and its integration still work.`,
              measure: 'Sending volume change',
              unit: '%',
              metadata: {
                value: volume.value,
                threshold: up ? VOLUME_UP : VOLUME_DOWN,
                ...volume.facts,
                window: '1 day',
              },
            }
          : null,
    });
  }
  return out;
}
