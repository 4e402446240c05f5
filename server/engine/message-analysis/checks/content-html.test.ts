import { encodeHTML } from 'entities';
import { describe, expect, it } from 'vitest';
import { MAX_HTML_SCAN_CHARS, scanHtml } from './content-html';

describe('scanHtml', () => {
  it('keeps what a reader sees and drops what they do not', () => {
    const scan = scanHtml(`<!doctype html><html><head><title>Hidden title</title><style>p{color:red}</style>
      <script>var s = "</p>not text";</script></head><body><!-- a comment --><!--[if mso]>Outlook only<![endif]-->
      <p>Hello&nbsp;<b>world</b></p><p>Fish &amp; chips &#8364;5 &#x1F600;</p><template>later</template>
      <div style="display:none">&zwnj;&#847;&zwnj;&#847;</div><td>a</td><td>b</td></body></html>`);
    expect(scan.text).toBe('Hello world Fish & chips €5 😀 a b');
    expect(scan.truncated).toBe(false);
  });

  it('collects anchors with their visible text, and images except tracking pixels', () => {
    const scan = scanHtml(`<a HREF="https://a.example/x?y=1&amp;z=2"> Read <em>more</em> </a>
      <a href='https://b.example'>first<a href=https://c.example/>second</a>
      <a name="anchor-without-href">no href</a>
      <img src="https://cdn.example/1.png"><IMG SRC=2.png width=600><img src="p.gif" width="1" height="1"><img src="q.gif" width="0px" height="0">`);
    expect(scan.anchors).toEqual([
      { href: 'https://a.example/x?y=1&z=2', text: 'Read more' },
      { href: 'https://b.example', text: 'first' },
      { href: 'https://c.example/', text: 'second' },
    ]);
    expect(scan.images).toEqual(['https://cdn.example/1.png', '2.png']);
  });

  it('treats a stray "<" as text and survives unterminated constructs', () => {
    expect(scanHtml('1 < 2 and 3 <4').text).toBe('1 < 2 and 3 <4');
    expect(scanHtml("<p don't>it's fine</p>").text).toBe("it's fine");
    expect(scanHtml('<p>before<!-- never closed <a href="https://x.example">x</a>').text).toBe('before');
    expect(scanHtml('<p>before<style>p{}').text).toBe('before');
    expect(scanHtml('<p title="never closed>after').text).toBe('');
    expect(scanHtml('<a href="https://x.example">open to the end').anchors).toEqual([
      { href: 'https://x.example', text: 'open to the end' },
    ]);
  });

  it('reads only the first MAX_HTML_SCAN_CHARS characters', () => {
    const scan = scanHtml(`<p>${'x'.repeat(MAX_HTML_SCAN_CHARS)}</p><a href="https://late.example/">late</a>`);
    expect(scan).toMatchObject({ truncated: true, scannedChars: MAX_HTML_SCAN_CHARS, anchors: [] });
  });
});

describe('entities', () => {
  const text = (html: string) => scanHtml(html).text;

  it('decodes the named references of the HTML standard, not a short list', () => {
    expect(
      text('<p>Wait&hellip; it&rsquo;s &ldquo;done&rdquo; &check; &frac12; &rarr; &Aring;ngstr&ouml;m &heartsuit;</p>'),
    ).toBe('Wait… it’s “done” ✓ ½ → Ångström ♥');
    // Every character the standard names (one code point each), written by its name: some 1,400 of them.
    const named: [string, string][] = [];
    for (let cp = 0x21; cp < 0x20000; cp++) {
      const char = String.fromCodePoint(cp);
      const reference = /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char) ? encodeHTML(char) : '';
      if (/^&[a-z][a-z0-9]*;$/i.test(reference)) named.push([reference, char]);
    }
    expect(named.length).toBeGreaterThan(1300);
    expect(text(`<p>${named.map(([reference]) => reference).join('')}</p>`)).toBe(
      named.map(([, char]) => char).join(''),
    );
  });

  it('decodes numeric references as browsers do', () => {
    // &#x80; is Windows-1252's euro sign
    expect(text('<p>&#x1F600; &#128512; &#39; &#x27; &#x80;</p>')).toBe("😀 😀 ' ' €");
    // What cannot be a character shows as the replacement character, as in a browser.
    expect(text('<p>a&#0;b&#xD800;c&#99999999;d&#x110000;e</p>')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
  });

  it('keeps unknown references, and reads legacy ones without a semicolon only in text', () => {
    expect(text('<p>&lt;b&gt; &quot;q&quot; &AMP; &bogus; AT&T &copy 2026 &notit;</p>')).toBe(
      '<b> "q" & &bogus; AT&T © 2026 ¬it;',
    );
    const [anchor] = scanHtml('<a href="https://x.example/?a=1&amp;b=2&copy=3&hellip;&#x2F;">x</a>').anchors;
    // In an attribute, "&copy=" is a query parameter, not ©= (the HTML standard's rule for attributes).
    expect(anchor.href).toBe('https://x.example/?a=1&b=2&copy=3…/');
  });

  it('decodes references in image sources and link text', () => {
    const scan = scanHtml(
      '<img src="https://cdn.example/a.png?w=1&amp;h=2"><a href=https://a.example>&#x70;aypal&period;com</a>',
    );
    expect(scan.images).toEqual(['https://cdn.example/a.png?w=1&h=2']);
    expect(scan.anchors).toEqual([{ href: 'https://a.example', text: 'paypal.com' }]);
  });
});

describe('attributes', () => {
  it('reads quoted, unquoted and valueless attributes in any case; the first of a repeated name wins', () => {
    const scan = scanHtml(`<a download HREF="https://first.example/a b" href="https://second.example">x</a>
      <img data-x=1 SRC = 'one.png' src="two.png" title='a > b'><img src=p.gif WIDTH = 1 height="0px" alt="">`);
    expect(scan.anchors).toEqual([{ href: 'https://first.example/a b', text: 'x' }]);
    expect(scan.images).toEqual(['one.png']);
  });
});

describe('malformed HTML', () => {
  it('does not count script, style, title or template content, whatever it contains', () => {
    const scan = scanHtml(`<script>document.write("<a href='https://hidden.example/'>x</a><img src=h.png>");</script>
      <style>p::after { content: "</p>" }</styles>still style</style><title>A &amp; B</title>
      <template><template><a href="https://t.example/">t</a></template><img src=t.png></template>
      <script/>self-closed, still script</script><p>shown</p>`);
    expect(scan).toMatchObject({ text: 'shown', anchors: [], images: [] });
  });

  it('reads unclosed elements, stray closing tags and bogus markup as browsers do', () => {
    expect(scanHtml('<table><tr><td>one<td>two<tr><td>three').text).toBe('one two three');
    expect(scanHtml('<div><b>bold<i>both</b></i></div></span></3>after<![CDATA[not text]]><?php echo 1 ?>').text).toBe(
      'boldboth after',
    );
    expect(scanHtml('<textarea><a href="https://x.example">x</a></textarea>').anchors).toEqual([]);
    // The second anchor's tag is cut off by the end of the message: no reader sees a link there.
    expect(scanHtml('<a href="https://a.example">open to the end<a href="https://b.example').anchors).toEqual([
      { href: 'https://a.example', text: 'open to the end' },
    ]);
  });
});

describe('hidden text', () => {
  const hidden = (html: string) => {
    const { text, hiddenText, hiddenBy } = scanHtml(html);
    return { text, hiddenText, hiddenBy };
  };

  it.each([
    ['<div style="display:none">secret words</div>', 'display:none'],
    ['<div style="DISPLAY: none !important">secret words</div>', 'display:none'],
    ['<span style="visibility:hidden">secret words</span>', 'visibility:hidden'],
    ['<span style="opacity:0">secret words</span>', 'opacity:0'],
    ['<div hidden>secret words</div>', 'the hidden attribute'],
    ['<p style="font-size:1px">secret words</p>', 'font-size:1px'],
    ['<p style="font-size:0">secret words</p>', 'font-size:0'],
    ['<div style="max-height:0;overflow:hidden">secret words</div>', 'a zero height with overflow:hidden'],
    ['<p style="color:#ffffff">secret words</p>', 'text the colour of its background'],
    ['<font color="#fefefe">secret words</font>', 'text the colour of its background'],
    ['<span style="color:rgba(0,0,0,0)">secret words</span>', 'transparent text'],
    ['<body bgcolor="black"><p style="color:#111">secret words</p></body>', 'text the colour of its background'],
  ])('%s hides its text (%s)', (html, how) => {
    expect(hidden(`<p>shown</p>${html}<p>after</p>`)).toEqual({
      text: 'shown after',
      hiddenText: 'secret words',
      hiddenBy: [how],
    });
  });

  it('keeps light text on a dark background visible, however the background is set', () => {
    const html = `<body style="background:#fff">
      <table bgcolor="#1f2933"><tr><td><p style="color:#ffffff">footer one</p></td></tr></table>
      <td style="background: #0066cc url(btn.png) no-repeat"><a href="https://x.example" style="color:#fff">button</a></td>
      <a style="color:#ffffff;background-color:#e4572e">own background</a>
      <p style="color:#333333">dark on white</p></body>`;
    expect(hidden(html)).toEqual({
      text: 'footer one button own background dark on white',
      hiddenText: '',
      hiddenBy: [],
    });
  });

  it('ends the hidden part where its element closes, counting nested elements of the same name', () => {
    expect(hidden('<div style="display:none"><div>a</div>b</div>c')).toMatchObject({ text: 'c', hiddenText: 'a b' });
    // The dark table closes, so white text after it is on the page background again.
    expect(
      hidden(
        '<table bgcolor="#000"><tr><td><p style="color:#fff">on dark</p></td></tr></table><p style="color:#fff">on white</p>',
      ),
    ).toMatchObject({
      text: 'on dark',
      hiddenText: 'on white',
    });
    // Never closed: hidden to the end, as in a browser.
    expect(hidden('<p>a</p><div style="display:none">b<p>c</p>')).toMatchObject({ text: 'a', hiddenText: 'b c' });
  });

  it('lists each way of hiding once, in the order met', () => {
    expect(
      hidden('<p style="font-size:1px">a</p><p style="font-size:1px">b</p><p style="color:white">c</p>').hiddenBy,
    ).toEqual(['font-size:1px', 'text the colour of its background']);
  });

  it('tracks a bounded number of backgrounds and keeps a bounded amount of hidden text', () => {
    const deep = '<div style="background:#000">'.repeat(5000) + '<p style="color:#fff">deep</p>';
    expect(hidden(deep).text).toBe('deep');
    const scan = scanHtml(`<div style="display:none">${'word '.repeat(100_000)}</div>`);
    expect(scan.hiddenText.length).toBeLessThanOrEqual(50_100);
  });
});

describe('invisible characters inside words', () => {
  it('names the words that carry them, and not preheader padding', () => {
    const scan = scanHtml(
      '<p>Buy vi&#8203;agra and c&zwnj;i&zwnj;alis</p><div>&zwnj;&nbsp;&zwnj;&nbsp;&#847;&zwnj;</div><p>Hello</p>',
    );
    expect(scan.wordsWithInvisibleCharacters).toEqual(['vi\u200Bagra', 'c\u200Ci\u200Calis']);
    expect(scan.text).toBe('Buy viagra and cialis Hello');
  });
});
