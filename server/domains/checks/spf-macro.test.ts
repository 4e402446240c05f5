import { describe, expect, it } from 'vitest';
import {
  expandMacroString,
  missingLetters,
  parseDomainSpec,
  parseMacroString,
  targetName,
  unqueryableName,
  type MacroValues,
} from './spf-macro';

// RFC 7208 section 7: the grammar of macro-strings and domain-specs (7.1) and their expansion (7.3).

describe('RFC 7208 7.1: domain-spec grammar', () => {
  const valid: [string, string][] = [
    ['7.1 a plain name ending in a toplabel', 'mail.example.com'],
    ['7.1 a trailing dot after the toplabel', 'mail.example.com.'],
    ['7.1 a toplabel with dashes (IDN)', 'foo.example.xn--zckzah'],
    ['7.1 any visible character but % before the toplabel', 'foo:bar/baz.example.com'],
    ['7.1 a domain-end that is a macro', '_spf.%{d}'],
    ['7.1 hosted SPF (Valimail)', '%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email'],
    ['7.1 transformers and delimiters', '%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}'],
    ['7.1 %% %_ %- escapes', 'macro%%percent%_%_space%-url-space.example.com'],
    ['7.1 uppercase letters (URL-escaped)', '%{L}.%{D2}'],
  ];
  it.each(valid)('%s: %s', (_clause, spec) => {
    expect(parseDomainSpec(spec)).toMatchObject({ ok: true });
  });

  const invalid: [string, string, string][] = [
    [
      '7.1 a "%" not followed by {, %, _ or -',
      'foo%.sbl.example.com',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    [
      '7.1 a macro in parentheses',
      '%(ir).sbl.example.com',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    [
      '7.1 a lone % at the end',
      'example.com%',
      'a "%" must start a macro such as %{d}, or be written %% for a percent sign',
    ],
    ['7.1 an unknown macro letter', '%{a}.example.com', '%{a} is not a macro letter (s, l, o, d, i, p, h or v)'],
    [
      '7.1 c is for explanation text only',
      '%{c}.example.com',
      '%{c} may only be used in explanation text, not in a domain name',
    ],
    [
      '7.1 r is for explanation text only',
      '%{r}.example.com',
      '%{r} may only be used in explanation text, not in a domain name',
    ],
    [
      '7.1 t is for explanation text only',
      '%{t}.example.com',
      '%{t} may only be used in explanation text, not in a domain name',
    ],
    [
      '7.1 an unclosed macro',
      '%{d.example.com',
      '"%{d.example.com" is not a macro of the form %{letter}, e.g. %{d} or %{ir}',
    ],
    ['7.3 a zero digit transformer', '%{d0}.example.com', 'the number in %{d0} must not be zero'],
    ['7.1 no toplabel', 'foo-bar', '"foo-bar" does not end in a top-level label such as ".com" (or in a macro)'],
    ['7.1 only a toplabel', 'museum', '"museum" does not end in a top-level label such as ".com" (or in a macro)'],
    [
      '7.1 only a toplabel with a trailing dot',
      'museum.',
      '"museum." does not end in a top-level label such as ".com" (or in a macro)',
    ],
    [
      '7.1 an all-numeric toplabel',
      'abc.123',
      '"abc.123" does not end in a top-level label such as ".com" (or in a macro)',
    ],
    [
      '7.1 an IP address as a name',
      '111.222.33.44',
      '"111.222.33.44" does not end in a top-level label such as ".com" (or in a macro)',
    ],
    [
      '7.1 a toplabel starting with a dash',
      'example.-com',
      '"example.-com" does not end in a top-level label such as ".com" (or in a macro)',
    ],
    [
      '7.1 a port after the name',
      'example.com:8080',
      '"example.com:8080" does not end in a top-level label such as ".com" (or in a macro)',
    ],
    ['7.1 a control character', 'foo.example.com\0', 'it contains a character that is not visible ASCII'],
    ['5.2 an empty domain-spec', '', 'the domain is empty'],
  ];
  it.each(invalid)('%s: %s', (_clause, spec, problem) => {
    expect(parseDomainSpec(spec)).toEqual({ ok: false, problem });
  });

  it('4.6.1: an unknown modifier value is a macro-string, which need not end in a toplabel', () => {
    expect(parseMacroString('man:dog/cat')).toMatchObject({ ok: true });
    expect(parseMacroString('%abc')).toMatchObject({ ok: false });
  });
});

describe('RFC 7208 7.3: expansion', () => {
  // The examples of RFC 7208 7.4: sender strong-bad@email.example.com, IP 192.0.2.3.
  const values: MacroValues = {
    s: 'strong-bad@email.example.com',
    l: 'strong-bad',
    o: 'email.example.com',
    d: 'email.example.com',
    i: '192.0.2.3',
    v: 'in-addr',
  };
  const cases: [string, string, string, MacroValues?][] = [
    ['7.4 %{s}', '%{s}', 'strong-bad@email.example.com'],
    ['7.4 %{o}', '%{o}', 'email.example.com'],
    ['7.4 %{d}', '%{d}', 'email.example.com'],
    ['7.4 %{d4}: more parts than there are uses all', '%{d4}', 'email.example.com'],
    ['7.4 %{d3}', '%{d3}', 'email.example.com'],
    ['7.4 %{d2}', '%{d2}', 'example.com'],
    ['7.4 %{d1}', '%{d1}', 'com'],
    ['7.4 %{dr}', '%{dr}', 'com.example.email'],
    ['7.4 %{d2r}', '%{d2r}', 'example.email'],
    ['7.4 %{l}', '%{l}', 'strong-bad'],
    ['7.4 %{l-}', '%{l-}', 'strong.bad'],
    ['7.4 %{lr}', '%{lr}', 'strong-bad'],
    ['7.4 %{lr-}', '%{lr-}', 'bad.strong'],
    ['7.4 %{l1r-}', '%{l1r-}', 'strong'],
    ['7.4 %{ir}.%{v}._spf.%{d2}', '%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    [
      '7.4 %{lr-}.lp.%{ir}.%{v}._spf.%{d2}',
      '%{lr-}.lp.%{ir}.%{v}._spf.%{d2}',
      'bad.strong.lp.3.2.0.192.in-addr._spf.example.com',
    ],
    [
      '7.4 %{d2}.trusted-domains.example.net',
      '%{d2}.trusted-domains.example.net',
      'example.com.trusted-domains.example.net',
    ],
    [
      '7.3 several delimiters split alike',
      '%{l2r+-}.user.%{d2}',
      'bar.foo.user.example.com',
      { l: 'foo-bar+zip+quux', d: 'example.com' },
    ],
    ['7.3 consecutive delimiters make empty parts', '%{l-}', 'a..b', { l: 'a--b' }],
    ['7.3 uppercase letters are URL-escaped', '%{L}', '~jack%26jill%3Dup-a_b3.c', { l: '~jack&jill=up-a_b3.c' }],
    ['7.1 %% %_ %-', 'a%%b%_c%-d', 'a%b c%20d'],
  ];
  it.each(cases)('%s', (_clause, spec, expected, own) => {
    const parsed = parseMacroString(spec);
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(expandMacroString(parsed.value, own ?? values)).toBe(expected);
  });

  it('7.3: names the sender-dependent letters left when only the domain is known', () => {
    const parsed = parseDomainSpec('%{i}._ip.%{h}._ehlo.%{d}._spf.vali.email');
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(missingLetters(parsed.value, { d: 'brand.test', o: 'brand.test' })).toEqual(['i', 'h']);
    const own = parseDomainSpec('_spf.%{d}.%{o}');
    if (!own.ok) throw new Error(own.problem);
    expect(missingLetters(own.value, { d: 'brand.test', o: 'brand.test' })).toEqual([]);
  });

  it('7.3: a name over 253 characters loses labels from the left; 4.8: a trailing dot is dropped', () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com.`;
    expect(targetName(long)).toBe(`${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`);
    expect(targetName('_spf.example.com.')).toBe('_spf.example.com');
  });

  it('4.3, 4.8: names a DNS query cannot carry', () => {
    expect(unqueryableName('mail.example...com')).toBe('"mail.example...com" has an empty label (two dots in a row)');
    expect(unqueryableName(`${'a'.repeat(64)}.example.com`)).toBe(
      `"${'a'.repeat(64)}.example.com" has a label longer than 63 characters`,
    );
    expect(unqueryableName('_spf.example.com')).toBeNull();
  });
});
