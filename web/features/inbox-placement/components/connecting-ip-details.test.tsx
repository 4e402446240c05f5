import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeReport } from '../test/fixtures';
import { ConnectingIpDetails } from './connecting-ip-details';

const connectingIp = makeReport().connectingIp!;

describe('ConnectingIpDetails: the blocklist count', () => {
  it('says how many lists were asked for this IP and what each answered, counted from the answers', () => {
    render(
      <ConnectingIpDetails
        envelope={null}
        connectingIp={{
          ...connectingIp,
          blocklists: [
            ...connectingIp.blocklists,
            {
              list: 'SpamCop',
              zone: 'bl.spamcop.net',
              status: 'unknown',
              reason: 'The list did not answer within 2 s.',
              lookupUrl: 'https://www.spamcop.net/bl.shtml',
            },
          ],
        }}
      />,
    );
    const listed = connectingIp.blocklists.filter((b) => b.status === 'listed').length;
    const clear = connectingIp.blocklists.filter((b) => b.status === 'clear').length;
    expect(screen.getByTestId('connecting-ip-list-count')).toHaveTextContent(
      `${connectingIp.blocklists.length + 1} IP lists asked for this message's connecting IP (the ones receivers most often block on): ${listed} listed, ${clear} clear, 1 gave no answer.`,
    );
  });
});
