import { publishedNetworks } from '../domains/spf-networks.service';
import { defineRunner } from '../platform/queue/job';
import { refreshSendingServiceNetworksJob } from './refresh-sending-service-networks.job';
import { SENDING_SERVICES } from './sending-services';
import { forgetOtherServices, networkRefreshTimes, replaceServiceNetworks } from './sending-service-networks.repo';

/** Services publish new networks rarely and announce them ahead: once a day is fresh enough. */
const REFRESH_EVERY_MS = 24 * 3600 * 1000;

/**
 * Every 10 minutes, the services whose networks are a day old or were never read: so a fresh install has them
 * within minutes of its worker starting, and a refresh that failed (DNS down) is tried again soon, while each
 * service is still read only once a day. A failed refresh stores nothing: the last good networks stay.
 */
export const refreshSendingServiceNetworksRunner = defineRunner(refreshSendingServiceNetworksJob, {
  schedule: '*/10 * * * *',
  async run(_data, { db, dns, log }) {
    await forgetOtherServices(
      db,
      SENDING_SERVICES.map((s) => s.name),
    );
    const refreshed = await networkRefreshTimes(db);
    const now = new Date();
    const due = SENDING_SERVICES.filter((service) => {
      const at = refreshed.get(service.name);
      return service.spfIncludes.length > 0 && (!at || now.getTime() - at.getTime() >= REFRESH_EVERY_MS);
    });
    for (const service of due) {
      const results = await Promise.all(service.spfIncludes.map((include) => publishedNetworks(dns, include)));
      const failed = results.flatMap((r) => ('failed' in r ? [r.failed] : []));
      if (failed.length > 0) {
        log.warn({ service: service.name, failed }, 'sending service networks not refreshed; the last ones stay');
        continue;
      }
      const networks = results.flatMap((r) => ('networks' in r ? r.networks : []));
      await replaceServiceNetworks(db, service.name, networks, now);
      log.info({ service: service.name, networks: networks.length }, 'sending service networks refreshed');
    }
  },
});
