import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Tests that serve TLS make their certificate with openssl; without it they are skipped with this reason. */
export const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
})();

/** A fresh self-signed certificate for `name` (CN and subjectAltName), valid 2 days, as PEM files in a temp dir. */
export function makeSelfSignedCert(name: string): { dir: string; key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
    ],
    { stdio: 'ignore' },
  );
  return { dir, key, cert };
}
