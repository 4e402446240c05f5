import type { Finding } from '@contracts/domains';
import { readPublicKey, type DkimKeyType } from './dkim-public-key';
import { error, info, warning } from './finding';
import { excerpt, parseStrictTagList } from './tag-list';

/**
 * What a verifier makes of one TXT record at a selector's name. v= is optional, but a record that
 * begins with v= of any value but "DKIM1" is discarded (RFC 6376 section 3.6.1); a record that
 * neither begins with v=DKIM1 nor has a p= tag is some other record (a verification token, a
 * wildcard's SPF) rather than a key.
 */
export type TxtRecordKind = { kind: 'key' } | { kind: 'discarded'; version: string } | { kind: 'other' };

export function kindOfRecord(record: string): TxtRecordKind {
  const version = /^[ \t]*v[ \t]*=[ \t]*([^;]*?)[ \t]*(?:;|$)/.exec(record)?.[1];
  if (version !== undefined) return version === 'DKIM1' ? { kind: 'key' } : { kind: 'discarded', version };
  return record.split(';').some((spec) => /^[ \t]*p[ \t]*=/.test(spec)) ? { kind: 'key' } : { kind: 'other' };
}

/** Why a verifier discards a record that starts with another v=, and the edit that makes it a key. */
export function discardedRecordFinding(name: string, version: string): Finding {
  const fix = /^dkim1$/i.test(version)
    ? 'Write v=DKIM1 in capital letters: verifiers compare the version exactly.'
    : /^DKIM1[ \t]/.test(version)
      ? 'Put a semicolon after v=DKIM1 and between the tags: v=DKIM1; k=rsa; p=<key>.'
      : 'Start the record with v=DKIM1 (the only DKIM version), or leave v= out.';
  return error(
    `The TXT record at ${name} starts with v=${excerpt(version)}, not v=DKIM1, so verifiers discard it (RFC 6376 section 3.6.1).`,
    fix,
  );
}

export interface KeyRecordReading {
  /** k= as published (rsa when absent); null when the record could not be read at all. */
  keyType: string | null;
  keyBits: number | null;
  findings: Finding[];
}

const KEY_TYPES: readonly string[] = ['rsa', 'ed25519'] satisfies DkimKeyType[];
/** A colon-separated list (h=, s=, t=), white space allowed around each item. */
const items = (value: string) => value.split(':').map((item) => item.replace(/^[ \t]+|[ \t]+$/g, ''));

/** One key record read as RFC 6376 section 3.6.1 (with RFC 8301 and RFC 8463) tells verifiers to. */
export function readKeyRecord(name: string, domain: string, record: string): KeyRecordReading {
  const list = parseStrictTagList(record);
  if (!list.ok)
    return {
      keyType: null,
      keyBits: null,
      findings: [
        error(
          `The DKIM record at ${name} is not a valid tag list: ${list.problem}, so verifiers reject it (RFC 6376 section 3.2).`,
          'Publish the record as tag=value pairs separated by semicolons, each tag once: v=DKIM1; k=rsa; p=<key>.',
        ),
      ],
    };
  const tags = list.tags;
  const findings: Finding[] = [];

  const version = tags.get('v');
  if (version !== undefined && tags.keys().next().value !== 'v') {
    findings.push(
      version === 'DKIM1'
        ? warning(
            `v=DKIM1 is not the first tag of the record at ${name}: RFC 6376 section 3.6.1 requires it first, and strict verifiers reject the record.`,
            'Move v=DKIM1 to the start of the record.',
          )
        : error(
            `The record at ${name} has v=${excerpt(version)}: the only DKIM version is DKIM1, and verifiers ignore keys of a version they do not implement (RFC 6376 section 6.1.2).`,
            'Start the record with v=DKIM1, or leave v= out.',
          ),
    );
  }

  const keyType = tags.get('k') ?? 'rsa';
  const p = tags.get('p');
  let keyBits: number | null = null;
  if (!KEY_TYPES.includes(keyType)) {
    findings.push(
      error(
        `The record at ${name} has k=${excerpt(keyType)}, a key type verifiers do not know (rsa or ed25519), so they cannot use the key.`,
        'Set k=rsa for an RSA key or k=ed25519 for an Ed25519 key (in lower case).',
      ),
    );
  } else if (p === undefined) {
    findings.push(
      error(
        `The record at ${name} has no p= tag, so it holds no key (RFC 6376 section 3.6.1: p= is required).`,
        'Add p= with the public key your provider gives you.',
      ),
    );
  } else if (p === '') {
    findings.push(
      error(
        `The key at ${name} is revoked (empty p=).`,
        'Publish the current public key from your sending provider, or remove the record.',
      ),
    );
  } else {
    const key = readPublicKey(name, keyType as DkimKeyType, p);
    if ('problem' in key) findings.push(key.problem);
    else {
      keyBits = key.bits;
      if (keyType === 'rsa') findings.push(...rsaSizeFindings(name, keyBits));
    }
  }

  const hashes = tags.get('h');
  if (hashes !== undefined && !items(hashes).includes('sha256')) {
    findings.push(
      items(hashes).includes('sha1')
        ? error(
            `The key at ${name} allows only SHA-1 signatures (h=${excerpt(hashes)}), and verifiers must not accept rsa-sha1 signatures (RFC 8301 section 3.1), so no signature can verify with it.`,
            'Remove h=, or set h=sha256, and sign with rsa-sha256.',
          )
        : error(
            `The key at ${name} allows only hash algorithms verifiers do not know (h=${excerpt(hashes)}), so no signature can verify with it (RFC 6376 section 3.6.1).`,
            'Remove h=, or set h=sha256 (in lower case).',
          ),
    );
  }

  const services = tags.get('s');
  if (services !== undefined && !items(services).some((service) => service === 'email' || service === '*')) {
    findings.push(
      error(
        `The key at ${name} is restricted to other services (s=${excerpt(services)}): verifiers of email ignore it (RFC 6376 section 3.6.1).`,
        'Remove s=, or set s=email.',
      ),
    );
  }

  const flags = items(tags.get('t') ?? '');
  if (flags.includes('y'))
    findings.push(
      info(
        `The key at ${name} is in testing mode (t=y): receivers may treat mail signed with it as unsigned (RFC 6376 section 3.6.1).`,
        'Remove t=y once your signatures verify.',
      ),
    );
  if (flags.includes('s'))
    findings.push(
      info(
        `The key at ${name} is restricted to its exact domain (t=s): a signature whose i= is at a subdomain of d= (i=@news.${domain} with d=${domain}) fails with it.`,
      ),
    );
  return { keyType, keyBits, findings };
}

/** RFC 8301 section 3.2: under 1024 bits is no key; signers should use 2048; verifiers need not go past 4096. */
function rsaSizeFindings(name: string, bits: number): Finding[] {
  if (bits < 1024)
    return [
      error(
        `The ${bits}-bit RSA key at ${name} is too short: verifiers must not accept signatures made with keys under 1024 bits (RFC 8301 section 3.2).`,
        'Rotate to a 2048-bit key.',
      ),
    ];
  if (bits < 2048)
    return [
      warning(
        `The ${bits}-bit RSA key at ${name} is weaker than recommended: RFC 8301 section 3.2 asks signers for 2048 bits.`,
        'Rotate to a 2048-bit key.',
      ),
    ];
  if (bits > 4096)
    return [
      warning(
        `The ${bits}-bit RSA key at ${name} is longer than verifiers must support (4096 bits, RFC 8301 section 3.2); some cannot verify its signatures.`,
        'Rotate to a 2048-bit key.',
      ),
    ];
  return [];
}
