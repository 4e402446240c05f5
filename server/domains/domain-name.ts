import { parse } from 'tldts';
import { AppError } from '../platform/errors';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A sending domain a user may add: a hostname under a public suffix, not an IP, at most 253 characters. */
export function validateDomainName(input: string): string {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  const parsed = parse(name);
  if (parsed.isIp) throw new AppError('validation_error', 'Enter a domain name, not an IP address');
  if (name.length > 253) throw new AppError('validation_error', 'Domain names are at most 253 characters');
  if (!name.includes('.') || !name.split('.').every((l) => LABEL.test(l))) {
    throw new AppError('validation_error', 'Enter a valid domain name such as example.com');
  }
  if (!parsed.domain || !parsed.isIcann) {
    throw new AppError('validation_error', 'Enter a domain under a public suffix, such as example.com');
  }
  return name;
}
