// What other capabilities may ask of DMARC.
export { dmarcStorage } from './dmarc.repo';
