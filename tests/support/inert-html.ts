/**
 * Problems that would let markup run script or load active content, found in server-rendered HTML
 * (attributes are double-quoted in React's and sanitize-html's output). For tests of dealer content.
 */

const ACTIVE_TAGS = ['script', 'iframe', 'frame', 'object', 'embed', 'applet', 'base', 'meta', 'link', 'style', 'form', 'button', 'input', 'textarea', 'select', 'math', 'template', 'noscript', 'portal', 'foreignobject', 'animate', 'set', 'use'];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'background', 'data', 'srcset', 'srcdoc'];
const SAFE_URL = /^(https?:\/\/|mailto:|tel:|sms:|\/(?!\/)|#|\?)/i;

function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function activeMarkup(html: string, options: { allowTags?: string[] } = {}): string[] {
  const problems: string[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const tag = match[1].toLowerCase();
    if (ACTIVE_TAGS.includes(tag) && !options.allowTags?.includes(tag)) problems.push(`<${tag}>`);
    for (const attribute of match[2].matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)) {
      const name = attribute[1].toLowerCase();
      const value = decode(attribute[2] ?? '');
      if (name.startsWith('on')) problems.push(`${name} on <${tag}>`);
      if (name === 'style') problems.push(`style on <${tag}>`);
      if (URL_ATTRIBUTES.includes(name)) {
        // A browser drops tabs and newlines from URLs and trims control characters and spaces.
        const url = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
        if (!SAFE_URL.test(url)) problems.push(`${name}="${value}" on <${tag}>`);
      }
    }
  }
  return problems;
}

/** Known ways to run script through HTML and Markdown: SVG and MathML, frames, URL tricks, mutation XSS. */
export const HOSTILE_SAMPLES = [
  '<svg onload=alert(1)><circle r="5"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="0" y="20">svg link</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<iframe src="https://www.youtube.com/embed/x"></iframe>',
  '<embed src="javascript:alert(1)">',
  '<object data="data:text/html,<script>alert(1)</script>"></object>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<a href="java&#x09;script:alert(1)">tab</a>',
  '<a href="&#0000106avascript:alert(1)">padded</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '![img](javascript:alert(1))',
  '[ref link][evil]\n\n[evil]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '<img src="https://cdn.example.org/a.jpg" srcset="javascript:alert(1) 1x">',
  '<img src=x:alert(1) onerror=eval(src)>',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<form><button formaction="javascript:alert(1)">x</button></form>',
  '<details open ontoggle=alert(1)><summary>x</summary></details>',
  '<video><source onerror=alert(1)></video>',
  '<a href="https://ok.example" onmouseover="alert(1)">hover</a>',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<div onclick="alert(1)" data-x="1" id="x">div</div>',
];
