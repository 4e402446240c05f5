/**
 * Top-level domains whose names are, by a wide margin, registered for spam, phishing and malware
 * rather than for ordinary sites: the ones that keep coming back in the published rankings of
 * "most abused TLDs" (Spamhaus's, and the yearly phishing-landscape studies), because names there
 * cost a dollar or nothing and are rarely checked. Filters weigh a link into them; a legitimate
 * sender on one of them pays for its neighbours. Kept short on purpose: .shop, .online, .site or
 * .live are abused too but carry too much ordinary commerce to count against a sender.
 *
 * - cheap, bulk-registered and over-represented in abuse reports: top, xyz, click, loan, work,
 *   buzz, rest, cam, icu, cyou, sbs, bond, quest, monster, lol, mom, bar, cfd
 * - the old free Freenom TLDs, almost only abuse since their free period: tk, ml, ga, cf, gq
 * - "generic" names sold cheaply in bulk and long dominated by spam: country, stream, download,
 *   racing, win, bid, review, date, trade, party, science, accountant, faith, cricket, men, kim
 * - names that read as file names in a message ("invoice.zip", "video.mov"), used to disguise
 *   links as attachments: zip, mov
 */
export const SUSPICIOUS_TLDS: ReadonlySet<string> = new Set([
  'top',
  'xyz',
  'click',
  'loan',
  'work',
  'buzz',
  'rest',
  'cam',
  'icu',
  'cyou',
  'sbs',
  'bond',
  'quest',
  'monster',
  'lol',
  'mom',
  'bar',
  'cfd',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'country',
  'stream',
  'download',
  'racing',
  'win',
  'bid',
  'review',
  'date',
  'trade',
  'party',
  'science',
  'accountant',
  'faith',
  'cricket',
  'men',
  'kim',
  'zip',
  'mov',
]);
