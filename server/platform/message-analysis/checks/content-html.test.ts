import { describe, expect, it } from 'vitest';
import { decodeEntities, MAX_HTML_SCAN_CHARS, readAttributes, scanHtml } from './content-html';

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
    expect(scanHtml('<a href="https://x.example">open to the end').anchors).toEqual([{ href: 'https://x.example', text: 'open to the end' }]);
  });

  it('reads only the first MAX_HTML_SCAN_CHARS characters', () => {
    const scan = scanHtml(`<p>${'x'.repeat(MAX_HTML_SCAN_CHARS)}</p><a href="https://late.example/">late</a>`);
    expect(scan).toMatchObject({ truncated: true, scannedChars: MAX_HTML_SCAN_CHARS, anchors: [] });
  });
});

describe('decodeEntities and readAttributes', () => {
  it('decodes named and numeric entities, leaves unknown or invalid ones harmless', () => {
    expect(decodeEntities('&lt;b&gt; &quot;q&quot; &AMP; &#39; &#x27; &bogus; &#0; &#xD800; &#99999999; &#x110000;')).toBe('<b> "q" & \' \' &bogus;    ');
  });

  it('reads quoted, unquoted and valueless attributes; the first of a repeated name wins', () => {
    const attrs = readAttributes(' href="a b" data-x=1 hidden title=\'t\' HREF="second" ');
    expect(Object.fromEntries(attrs)).toEqual({ href: 'a b', 'data-x': '1', hidden: '', title: 't' });
  });
});
