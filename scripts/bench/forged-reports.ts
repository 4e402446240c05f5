// bench:hostile's "forged reports" phase (issue 36, section 2): anyone can mail the one public dmarc@ address. Eight
// forged reports of 50,000 records each (claiming to be Google's, mailed unsigned from one network) are in flight
// when a reporter mails its real report from another network, DKIM-signed as a real reporter signs: the real one
// must be stored within 5 s of the SMTP 250, and nothing of the forged ones may be stored against the owner.
//
// The forged mails go from 127.0.0.1, the real one from 127.0.1.1 (another /24, as the listener counts networks).
// Both sessions open at once (each stranger waits for the greeting), and the real one sends its message only once
// all eight forged mails are accepted (250), so they are waiting for the report thread when it arrives. The figure
// is the time from its 250 to its dmarc_reports row; then the bench waits for the forged mails to be processed and
// says what became of them.
import { generateKeyPairSync } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Pool } from 'pg';
import type { ZoneEntry } from '../../server/test/dns-server';
import { REPORTER, type ReportFile } from './report-file';
import { sendRaw } from './smtp-raw';

/** The goal of issue 36: a legitimate report stored within 5 s while the forged ones are in flight. */
export const GOAL_STORED_MS = 5000;
export const FORGED_FILES = 8;
export const FORGED_RECORDS = 50_000;
/** Who the forged reports claim to be. */
export const FORGED_REPORTER = 'google.com';
const REAL_SENDER_ADDRESS = '127.0.1.1';

/** The reporter's DKIM key: its public half goes into the bench's DNS zone, the private half signs its mail. */
export function reporterDkim(): { zone: Record<string, ZoneEntry>; dkim: NonNullable<SendMailOptions['dkim']> } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    zone: {
      [`s1._domainkey.${REPORTER}`]: {
        TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`],
      },
    },
    dkim: {
      domainName: REPORTER,
      keySelector: 's1',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  };
}

export interface ForgedReportsSetup {
  smtpPort: number;
  inboundDomain: string;
  pool: Pool;
  forged: ReportFile[];
  real: ReportFile;
  dkim: NonNullable<SendMailOptions['dkim']>;
  waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T>;
}

const reportMail = (file: ReportFile, from: string, inboundDomain: string): SendMailOptions => ({
  from: `noreply-dmarc@${from}`,
  to: `dmarc@${inboundDomain}`,
  subject: `Report domain: ${file.domain} Submitter: ${from} Report-ID: <${file.reportId}>`,
  text: `This is an aggregate report from ${from}.`,
  attachments: [{ filename: file.fileName, content: file.gzip, contentType: 'application/gzip' }],
});

const queuedId = (response: string) => {
  if (!response.startsWith('250')) throw new Error(`SMTP answered ${response}`);
  return Number(/Queued as (\d+)/.exec(response)![1]);
};

export async function forgedReports(setup: ForgedReportsSetup) {
  const { pool, waitFor } = setup;
  const transport = () =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: setup.smtpPort,
      secure: false,
      ignoreTLS: true,
      name: 'mta.bench.test',
    });
  const forger = transport(); // from 127.0.0.1
  // The real mail as its reporter sends it: signed, then dot-stuffed for the bare client.
  const signed = await nodemailer
    .createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
    .sendMail({ ...reportMail(setup.real, REPORTER, setup.inboundDomain), dkim: setup.dkim });
  const realMessage = Buffer.from(
    `${(signed.message as Buffer).toString('latin1').replace(/\r\n\./g, '\r\n..')}\r\n`,
    'latin1',
  );
  try {
    const forgedAccepted = Promise.all(
      setup.forged.map((file) => forger.sendMail(reportMail(file, FORGED_REPORTER, setup.inboundDomain))),
    );
    let sentAt = 0;
    const realAccepted = sendRaw(
      setup.smtpPort,
      { helo: 'mta.bench.test', from: `noreply-dmarc@${REPORTER}`, to: `dmarc@${setup.inboundDomain}` },
      [realMessage],
      { localAddress: REAL_SENDER_ADDRESS, ready: forgedAccepted.then(() => (sentAt = performance.now())) },
    );
    const forgedIds = (await forgedAccepted).map((info) => queuedId(String(info.response)));
    const realId = queuedId(await realAccepted);
    const acceptedAt = performance.now();
    const stored = await waitFor(
      'the real report to be stored',
      async () =>
        (
          await pool.query<{ status: string }>('select status from dmarc_reports where report_id = $1', [
            setup.real.reportId,
          ])
        ).rows[0],
      (row) => row !== undefined,
    );
    const storedMs = performance.now() - acceptedAt;
    const forgedLeft = () =>
      pool.query<{ n: number }>(
        `select count(*)::int as n from inbound_messages where id = any($1) and status = 'received'`,
        [forgedIds],
      );
    const stillWaiting = (await forgedLeft()).rows[0].n;
    await waitFor('the forged reports to be processed', forgedLeft, (r) => r.rows[0].n === 0);
    const forgedRows = (
      await pool.query<{ status: string; records: number }>(
        'select status, record_count as records from dmarc_reports where report_id = any($1)',
        [setup.forged.map((f) => f.reportId)],
      )
    ).rows;
    const forgedRecords = forgedRows.reduce((sum, r) => sum + r.records, 0);
    const met = stored.status === 'imported' && storedMs <= GOAL_STORED_MS && forgedRecords === 0;
    const s = (ms: number) => Math.round(ms) / 1000;
    return {
      summary:
        `${FORGED_FILES} forged ${FORGED_RECORDS.toLocaleString('en-US')}-record reports accepted, then the real one (message ${realId}) ` +
        `sent its message once they were and was accepted ${s(acceptedAt - sentAt)} s later; it was ${stored.status} ${s(storedMs)} s after its 250 (goal <= ${GOAL_STORED_MS / 1000} s: ` +
        `${met ? 'met' : 'MISSED'}); ${stillWaiting} forged mails were still waiting then; forged reports stored: ` +
        `${forgedRows.length} rows (${forgedRows.map((r) => r.status).join(', ') || 'none'}), ${forgedRecords} records`,
      details: {
        'real report stored s': s(storedMs),
        'real report goal s': GOAL_STORED_MS / 1000,
        'real report goal': met ? 'met' : 'missed',
        'forged still waiting': stillWaiting,
        'forged rows': forgedRows.length,
        'forged records stored': forgedRecords,
      },
    };
  } finally {
    forger.close();
  }
}
