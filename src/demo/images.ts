import sharp from 'sharp';
import type { MediaStore } from '@/lib/media';
import type { Silhouette } from './catalogue';
import type { PhotoSpec } from './stock';

/**
 * Placeholder art for the demo: vehicle "photos", dealer logos. Everything is drawn here as SVG
 * and rasterised with sharp; nothing is downloaded.
 */

export const PHOTO_WIDTH = 960;
export const PHOTO_HEIGHT = 640;
const FONT = "DejaVu Sans, 'Liberation Sans', Arial, Helvetica, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Mixes a #rrggbb colour towards black (amount < 0) or white (amount > 0). */
export function shade(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channels = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const target = amount < 0 ? 0 : 255;
    return Math.round(c + (target - c) * Math.abs(amount));
  });
  return `#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}

type Paint = { body: string; dark: string; light: string; glass: string; tyre: string; rim: string; trim: string };

function paintFor(hex: string): Paint {
  return {
    body: hex,
    dark: shade(hex, -0.35),
    light: shade(hex, 0.35),
    glass: '#27313d',
    tyre: '#16181b',
    rim: '#c4c9cf',
    trim: '#30343a',
  };
}

function wheel(cx: number, cy: number, r: number, p: Paint, spokes = 5): string {
  const spokeLines = Array.from({ length: spokes }, (_, i) => {
    const a = (i / spokes) * Math.PI * 2;
    return `<line x1="${cx}" y1="${cy}" x2="${(cx + Math.cos(a) * r * 0.55).toFixed(1)}" y2="${(cy + Math.sin(a) * r * 0.55).toFixed(1)}" stroke="${shade(p.rim, -0.3)}" stroke-width="${(r * 0.12).toFixed(1)}" stroke-linecap="round"/>`;
  }).join('');
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.tyre}"/><circle cx="${cx}" cy="${cy}" r="${(r * 0.62).toFixed(1)}" fill="${p.rim}"/>${spokeLines}<circle cx="${cx}" cy="${cy}" r="${(r * 0.14).toFixed(1)}" fill="${shade(p.rim, -0.45)}"/>`;
}

/** Side profile in a 800×300 box, facing left; ground at y = 285. */
function sideProfile(silhouette: Silhouette, p: Paint): string {
  const stroke = `stroke="${p.dark}" stroke-width="3" stroke-linejoin="round"`;
  switch (silhouette) {
    case 'sedan':
      return `<path d="M40 215 Q40 180 85 174 L230 160 Q300 102 380 98 L530 98 Q600 102 655 158 L745 168 Q772 174 772 210 L772 238 L40 238 Z" fill="${p.body}" ${stroke}/>
<path d="M252 160 L318 112 L440 108 L440 160 Z M458 160 L458 108 L528 110 L600 160 Z" fill="${p.glass}"/>
<path d="M60 205 L752 205" stroke="${p.light}" stroke-width="4" opacity="0.6"/>
<rect x="44" y="196" width="24" height="12" rx="4" fill="#f3f0d7"/><rect x="748" y="192" width="22" height="12" rx="4" fill="#c0262d"/>
${wheel(185, 240, 48, p)}${wheel(625, 240, 48, p)}`;
    case 'hatch':
      return `<path d="M60 215 Q60 178 105 172 L240 158 Q305 98 385 94 L610 96 Q668 108 706 176 L722 190 L722 238 L60 238 Z" fill="${p.body}" ${stroke}/>
<path d="M262 158 L325 110 L450 106 L450 158 Z M468 158 L468 106 L602 106 Q640 118 668 158 Z" fill="${p.glass}"/>
<path d="M80 205 L712 205" stroke="${p.light}" stroke-width="4" opacity="0.6"/>
<rect x="64" y="194" width="24" height="12" rx="4" fill="#f3f0d7"/><rect x="700" y="180" width="18" height="16" rx="4" fill="#c0262d"/>
${wheel(200, 240, 48, p)}${wheel(600, 240, 48, p)}`;
    case 'suv':
      return `<path d="M40 225 Q40 160 92 152 L212 146 L282 74 L650 70 Q700 74 726 146 L760 156 Q774 164 774 222 L774 246 L40 246 Z" fill="${p.body}" ${stroke}/>
<path d="M232 148 L295 86 L450 84 L450 148 Z M468 148 L468 84 L636 84 Q680 90 700 148 Z" fill="${p.glass}"/>
<rect x="300" y="60" width="360" height="9" rx="3" fill="${p.trim}"/>
<path d="M60 214 L754 214" stroke="${p.light}" stroke-width="4" opacity="0.6"/>
<rect x="44" y="178" width="26" height="14" rx="4" fill="#f3f0d7"/><rect x="756" y="170" width="16" height="22" rx="4" fill="#c0262d"/>
${wheel(190, 248, 55, p)}${wheel(630, 248, 55, p)}`;
    case 'ute':
      return `<path d="M40 225 Q40 160 92 152 L212 146 L276 76 L472 74 L486 146 L772 146 L772 246 L40 246 Z" fill="${p.body}" ${stroke}/>
<path d="M230 148 L290 88 L380 86 L380 148 Z M396 148 L396 86 L462 86 L470 148 Z" fill="${p.glass}"/>
<path d="M500 150 L500 240 M500 150 L772 150" stroke="${p.dark}" stroke-width="4"/>
<rect x="520" y="118" width="230" height="8" rx="3" fill="${p.trim}"/><path d="M540 126 L540 150 M730 126 L730 150" stroke="${p.trim}" stroke-width="6"/>
<rect x="44" y="178" width="26" height="14" rx="4" fill="#f3f0d7"/><rect x="760" y="164" width="12" height="24" rx="3" fill="#c0262d"/>
${wheel(190, 248, 55, p)}${wheel(640, 248, 55, p)}`;
    case 'van':
      return `<path d="M40 232 L40 140 Q46 86 128 74 L742 64 Q772 64 772 100 L772 246 L40 246 Z" fill="${p.body}" ${stroke}/>
<path d="M58 140 Q66 98 130 88 L210 86 L210 140 Z M230 140 L230 86 L380 84 L380 140 Z" fill="${p.glass}"/>
<path d="M400 84 L400 236 M560 80 L560 236" stroke="${p.dark}" stroke-width="3"/>
<rect x="44" y="176" width="22" height="14" rx="4" fill="#f3f0d7"/><rect x="760" y="160" width="12" height="28" rx="3" fill="#c0262d"/>
${wheel(170, 248, 52, p)}${wheel(640, 248, 52, p)}`;
    case 'campervan':
      return `<path d="M40 232 L40 160 Q44 116 110 108 L150 104 L170 56 Q176 42 200 42 L744 38 Q772 38 772 66 L772 246 L40 246 Z" fill="${p.body}" ${stroke}/>
<path d="M56 160 Q62 124 118 118 L196 116 L196 160 Z" fill="${p.glass}"/>
<rect x="330" y="92" width="150" height="70" rx="10" fill="${p.glass}"/><rect x="560" y="92" width="120" height="60" rx="10" fill="${p.glass}"/>
<rect x="236" y="96" width="64" height="140" rx="6" fill="${p.light}" stroke="${p.dark}" stroke-width="3"/>
<path d="M210 196 L772 196" stroke="#8a949e" stroke-width="10"/><path d="M210 210 L772 210" stroke="#c9ced4" stroke-width="5"/>
<rect x="44" y="186" width="22" height="14" rx="4" fill="#f3f0d7"/><rect x="760" y="170" width="12" height="28" rx="3" fill="#c0262d"/>
${wheel(160, 248, 52, p)}${wheel(630, 248, 52, p)}`;
    case 'truck':
      return `<rect x="240" y="30" width="532" height="196" rx="6" fill="${shade(p.body, 0.55)}" stroke="${p.dark}" stroke-width="3"/>
<path d="M262 60 L750 60 M262 200 L750 200" stroke="${shade(p.body, 0.2)}" stroke-width="6"/>
<path d="M40 244 L40 112 Q40 70 84 66 L218 62 Q234 62 236 80 L236 244 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<path d="M56 140 L64 90 Q68 80 84 80 L200 78 L200 140 Z" fill="${p.glass}"/>
<rect x="40" y="226" width="732" height="18" fill="${p.trim}"/>
<rect x="44" y="190" width="26" height="16" rx="4" fill="#f3f0d7"/><rect x="760" y="206" width="12" height="16" rx="3" fill="#c0262d"/>
${wheel(140, 256, 44, p, 8)}${wheel(560, 256, 44, p, 8)}${wheel(668, 256, 44, p, 8)}`;
    case 'prime-mover':
      return `<path d="M40 244 L40 100 Q40 58 86 54 L250 50 L360 50 Q380 50 380 72 L380 244 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<path d="M56 140 L64 84 Q68 70 86 70 L230 68 L230 140 Z" fill="${p.glass}"/>
<rect x="262" y="78" width="96" height="60" rx="8" fill="${shade(p.body, -0.15)}"/>
<rect x="392" y="20" width="16" height="200" rx="6" fill="#c9ced4"/>
<rect x="380" y="214" width="392" height="24" fill="${p.trim}"/><rect x="560" y="198" width="120" height="18" rx="4" fill="#3d434a"/>
<rect x="44" y="196" width="26" height="16" rx="4" fill="#f3f0d7"/>
${wheel(150, 254, 46, p, 8)}${wheel(560, 254, 46, p, 8)}${wheel(672, 254, 46, p, 8)}`;
    case 'motorcycle':
      return `${wheel(210, 216, 82, p, 10)}${wheel(610, 216, 82, p, 10)}
<path d="M210 216 L300 110 M300 110 L330 92 M610 216 L520 150 L380 150" stroke="#3b4047" stroke-width="12" stroke-linecap="round" fill="none"/>
<path d="M380 120 Q430 84 520 96 Q560 104 560 130 L380 138 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<path d="M540 118 Q600 108 660 126 L660 140 L540 140 Z" fill="#1f2226"/>
<rect x="380" y="150" width="120" height="70" rx="12" fill="#7b828b"/><path d="M480 214 L690 196" stroke="#aab1b9" stroke-width="12" stroke-linecap="round"/>
<path d="M300 110 L262 72 M262 72 L236 64" stroke="#3b4047" stroke-width="8" stroke-linecap="round"/>
<path d="M250 100 Q300 60 350 96 L320 120 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<circle cx="250" cy="112" r="14" fill="#f3f0d7" stroke="${p.dark}" stroke-width="3"/>`;
    case 'caravan':
      return `<path d="M110 206 L40 226 L40 240" stroke="#3b4047" stroke-width="10" fill="none" stroke-linecap="round"/>
<circle cx="40" cy="262" r="14" fill="${p.tyre}"/><path d="M40 240 L40 252" stroke="#3b4047" stroke-width="8"/>
<path d="M120 230 L120 70 Q120 40 160 38 L740 34 Q772 34 772 66 L772 230 Z" fill="${p.body}" stroke="${shade(p.body, -0.45)}" stroke-width="3"/>
<path d="M120 150 L772 150" stroke="#8a949e" stroke-width="12"/><path d="M120 168 L772 168" stroke="#c9ced4" stroke-width="6"/>
<rect x="170" y="64" width="150" height="66" rx="10" fill="${p.glass}"/><rect x="560" y="64" width="160" height="66" rx="10" fill="${p.glass}"/>
<rect x="380" y="60" width="70" height="164" rx="6" fill="${shade(p.body, -0.08)}" stroke="${shade(p.body, -0.45)}" stroke-width="3"/>
<rect x="120" y="222" width="652" height="12" fill="${p.trim}"/>
${wheel(520, 248, 46, p, 6)}`;
  }
}

/** Front (or rear) view in a 600×300 box centred at x = 300. */
function faceView(silhouette: Silhouette, p: Paint, rear: boolean): string {
  const light = rear ? '#c0262d' : '#f3f0d7';
  if (silhouette === 'motorcycle') {
    return `<rect x="262" y="190" width="76" height="100" rx="30" fill="${p.tyre}"/>
<path d="M180 90 L420 90" stroke="#3b4047" stroke-width="12" stroke-linecap="round"/>
<path d="M230 110 Q300 60 370 110 L350 200 L250 200 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<circle cx="300" cy="140" r="${rear ? 16 : 30}" fill="${light}" stroke="${p.dark}" stroke-width="3"/>
<circle cx="170" cy="80" r="14" fill="${p.trim}"/><circle cx="430" cy="80" r="14" fill="${p.trim}"/>`;
  }
  const tall = silhouette === 'truck' || silhouette === 'prime-mover' || silhouette === 'van' || silhouette === 'campervan' || silhouette === 'caravan';
  const top = tall ? 30 : silhouette === 'suv' || silhouette === 'ute' ? 70 : 100;
  const wheels = `<rect x="92" y="236" width="66" height="54" rx="10" fill="${p.tyre}"/><rect x="442" y="236" width="66" height="54" rx="10" fill="${p.tyre}"/>`;
  if (silhouette === 'caravan') {
    return `${wheels}<rect x="100" y="${top}" width="400" height="220" rx="26" fill="${p.body}" stroke="${shade(p.body, -0.45)}" stroke-width="3"/>
<rect x="160" y="${top + 40}" width="280" height="80" rx="12" fill="${p.glass}"/>
${rear ? `<rect x="110" y="${top + 170}" width="60" height="22" rx="6" fill="${light}"/><rect x="430" y="${top + 170}" width="60" height="22" rx="6" fill="${light}"/><rect x="250" y="${top + 150}" width="100" height="50" rx="6" fill="${p.trim}"/>` : `<path d="M300 250 L300 290 M240 250 L300 280 L360 250" stroke="#3b4047" stroke-width="10" fill="none"/><circle cx="300" cy="290" r="12" fill="${p.tyre}"/>`}`;
  }
  if (tall) {
    // A boxy cab face: trucks, vans and motorhomes.
    const grille = rear
      ? `<rect x="150" y="${top + 60}" width="300" height="150" rx="6" fill="${shade(p.body, -0.12)}" stroke="${p.dark}" stroke-width="2"/><path d="M300 ${top + 60} L300 ${top + 210}" stroke="${p.dark}" stroke-width="3"/>`
      : `<path d="M110 ${top + 20} L490 ${top + 20} L480 ${top + 110} L120 ${top + 110} Z" fill="${p.glass}"/><rect x="190" y="${top + 140}" width="220" height="66" rx="8" fill="${p.trim}"/><path d="M200 ${top + 156} L400 ${top + 156} M200 ${top + 172} L400 ${top + 172} M200 ${top + 188} L400 ${top + 188}" stroke="#555b63" stroke-width="4"/>`;
    return `${wheels}<rect x="84" y="${top}" width="432" height="226" rx="18" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
${grille}<rect x="100" y="${top + 150}" width="70" height="30" rx="6" fill="${light}"/><rect x="430" y="${top + 150}" width="70" height="30" rx="6" fill="${light}"/>
<rect x="70" y="226" width="460" height="24" rx="4" fill="${p.trim}"/>${silhouette === 'prime-mover' && !rear ? `<rect x="40" y="${top - 20}" width="14" height="190" rx="6" fill="#c9ced4"/><rect x="546" y="${top - 20}" width="14" height="190" rx="6" fill="#c9ced4"/>` : ''}`;
  }
  return `${wheels}<path d="M80 250 L80 ${top + 110} Q84 ${top + 78} 120 ${top + 70} L150 ${top + 8} Q156 ${top} 176 ${top} L424 ${top} Q444 ${top} 450 ${top + 8} L480 ${top + 70} Q516 ${top + 78} 520 ${top + 110} L520 250 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>
<path d="M160 ${top + 66} L182 ${top + 16} L418 ${top + 16} L440 ${top + 66} Z" fill="${p.glass}"/>
<rect x="96" y="${top + 96}" width="84" height="30" rx="8" fill="${light}"/><rect x="420" y="${top + 96}" width="84" height="30" rx="8" fill="${light}"/>
${rear ? `<rect x="230" y="${top + 120}" width="140" height="36" rx="4" fill="#f4f4f2" stroke="${p.trim}" stroke-width="2"/>` : `<rect x="200" y="${top + 100}" width="200" height="56" rx="10" fill="${p.trim}"/><path d="M210 ${top + 114} L390 ${top + 114} M210 ${top + 128} L390 ${top + 128} M210 ${top + 142} L390 ${top + 142}" stroke="#555b63" stroke-width="4"/>`}
<rect x="80" y="226" width="440" height="24" fill="${p.trim}"/>`;
}

/** Cabin, dashboard and living-area views in the 800×300 box. */
function interiorView(angle: string, silhouette: Silhouette, p: Paint): string {
  const trim = shade(p.body, -0.2);
  const a = angle.toLowerCase();
  if (a === 'bed' || a === 'kitchen' || a === 'bathroom' || a === 'lounge' || (silhouette === 'caravan' && a === 'interior')) {
    const fixtures =
      a === 'bed'
        ? `<rect x="200" y="150" width="400" height="110" rx="14" fill="#f1ede4"/><rect x="220" y="130" width="150" height="40" rx="12" fill="#ffffff"/><rect x="430" y="130" width="150" height="40" rx="12" fill="#ffffff"/><rect x="200" y="200" width="400" height="60" rx="10" fill="${p.body}" opacity="0.55"/>`
        : a === 'kitchen'
          ? `<rect x="120" y="170" width="560" height="100" fill="#d9d4cb"/><rect x="120" y="160" width="560" height="14" fill="#8d8578"/><rect x="200" y="140" width="100" height="20" rx="4" fill="#9aa2ab"/><circle cx="520" cy="150" r="16" fill="#3b4047"/><circle cx="570" cy="150" r="16" fill="#3b4047"/><rect x="150" y="40" width="500" height="60" rx="6" fill="${trim}"/>`
          : a === 'bathroom'
            ? `<rect x="160" y="60" width="180" height="210" rx="8" fill="#dfe7ee" stroke="#9aa2ab" stroke-width="4"/><circle cx="250" cy="100" r="18" fill="#9aa2ab"/><rect x="420" y="170" width="140" height="100" rx="30" fill="#f7f7f7" stroke="#9aa2ab" stroke-width="4"/><rect x="600" y="80" width="90" height="120" rx="6" fill="#b9d3e6"/>`
            : `<rect x="140" y="150" width="520" height="110" rx="20" fill="#d7cfc2"/><rect x="140" y="120" width="120" height="80" rx="16" fill="#cbbfae"/><rect x="540" y="120" width="120" height="80" rx="16" fill="#cbbfae"/><rect x="320" y="180" width="160" height="60" rx="6" fill="#8d8578"/><rect x="250" y="40" width="300" height="70" rx="10" fill="#b9d3e6"/>`;
    return `<rect x="60" y="20" width="680" height="270" rx="16" fill="#efe9df"/>${fixtures}<rect x="60" y="20" width="680" height="14" fill="${p.body}"/>`;
  }
  if (a === 'rear seats' || a === 'seat') {
    return `<rect x="120" y="80" width="560" height="200" rx="40" fill="#2e3238"/><rect x="150" y="60" width="160" height="120" rx="30" fill="#3b4047"/><rect x="320" y="60" width="160" height="120" rx="30" fill="#3b4047"/><rect x="490" y="60" width="160" height="120" rx="30" fill="#3b4047"/>
<path d="M150 200 L650 200" stroke="${p.body}" stroke-width="6"/>`;
  }
  if (silhouette === 'motorcycle') {
    // Cockpit: bars, clocks and the tank from the rider's seat.
    return `<path d="M120 120 Q400 60 680 120" stroke="#3b4047" stroke-width="18" fill="none" stroke-linecap="round"/>
<rect x="300" y="70" width="200" height="110" rx="16" fill="#1f2226"/><rect x="318" y="86" width="164" height="78" rx="8" fill="#2f6f8f"/>
<text x="400" y="136" font-family="${FONT}" font-size="30" fill="#e6f4ff" text-anchor="middle">0 km/h</text>
<path d="M260 300 Q400 170 540 300 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>`;
  }
  if (a === 'interior') {
    // From the back seat: the dash and windscreen beyond two front seats.
    const seat = (x: number) =>
      `<rect x="${x}" y="120" width="190" height="180" rx="40" fill="#33373d"/><rect x="${x + 45}" y="62" width="100" height="62" rx="20" fill="#3b4047"/><path d="M${x + 30} 200 L${x + 160} 200" stroke="${p.body}" stroke-width="5" opacity="0.8"/>`;
    return `<rect x="40" y="20" width="720" height="110" rx="20" fill="#8fb3cc"/>
<path d="M40 150 Q400 90 760 150 L760 300 L40 300 Z" fill="#2b2f35"/>
<rect x="355" y="130" width="90" height="60" rx="8" fill="#2f6f8f"/>${seat(150)}${seat(460)}`;
  }
  const odometer = a === 'odometer';
  return `<path d="M40 170 Q400 70 760 170 L760 300 L40 300 Z" fill="#2b2f35"/>
<path d="M40 170 Q400 70 760 170" stroke="${trim}" stroke-width="10" fill="none"/>
<rect x="430" y="120" width="190" height="100" rx="12" fill="#1a1d21"/><rect x="444" y="132" width="162" height="76" rx="8" fill="#2f6f8f"/>
${odometer ? `<rect x="160" y="110" width="240" height="110" rx="14" fill="#0f1113"/><text x="280" y="180" font-family="${FONT}" font-size="40" fill="#f59e0b" text-anchor="middle">ODO</text>` : `<circle cx="250" cy="210" r="92" fill="none" stroke="#121417" stroke-width="22"/><path d="M160 210 L340 210 M250 210 L250 300" stroke="#121417" stroke-width="18"/><circle cx="250" cy="210" r="22" fill="${p.body}"/>`}
<rect x="640" y="200" width="90" height="60" rx="8" fill="#3b4047"/>`;
}

/** Detail views: wheel, engine, body, drawbar and the like. */
function detailView(angle: string, silhouette: Silhouette, p: Paint): string {
  const a = angle.toLowerCase();
  if (a === 'wheel') {
    return `<path d="M120 300 L120 120 Q400 -20 680 120 L680 300 Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>${wheel(400, 190, 120, p, silhouette === 'truck' || silhouette === 'prime-mover' ? 10 : 6)}`;
  }
  if (a === 'engine bay' || a === 'engine' || a === 'exhaust') {
    return `<rect x="100" y="60" width="600" height="230" rx="20" fill="#3b4047"/>
<rect x="250" y="110" width="300" height="130" rx="14" fill="#7b828b"/><rect x="280" y="90" width="240" height="40" rx="10" fill="${p.body}"/>
<circle cx="170" cy="140" r="34" fill="#1f2226"/><rect x="590" y="120" width="80" height="110" rx="8" fill="#9aa2ab"/>
${a === 'exhaust' ? `<path d="M160 260 L640 200" stroke="#c9ced4" stroke-width="26" stroke-linecap="round"/>` : ''}`;
  }
  if ((a === 'boot' || a === 'body') && silhouette !== 'motorcycle') {
    // The rear with the boot, tailgate or body doors open.
    const tall = silhouette === 'truck' || silhouette === 'prime-mover' || silhouette === 'van' || silhouette === 'campervan' || silhouette === 'caravan';
    const top = tall ? 30 : silhouette === 'suv' || silhouette === 'ute' ? 70 : 100;
    const opening = `<rect x="150" y="${top + 30}" width="300" height="${tall ? 180 : 120}" rx="8" fill="#1d2024"/><rect x="170" y="${top + (tall ? 150 : 110)}" width="260" height="${tall ? 50 : 30}" rx="4" fill="#3b4047"/>`;
    const lid = tall
      ? `<rect x="40" y="${top + 10}" width="100" height="200" rx="6" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/><rect x="460" y="${top + 10}" width="100" height="200" rx="6" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/>`
      : `<path d="M150 ${top + 30} L175 ${top - 80} L425 ${top - 80} L450 ${top + 30} Z" fill="${p.body}" stroke="${p.dark}" stroke-width="3"/><path d="M190 ${top - 60} L410 ${top - 60} L425 ${top} L175 ${top} Z" fill="${p.glass}"/>`;
    return `<g transform="translate(100 0)">${faceView(silhouette, p, true)}${opening}${lid}</g>`;
  }
  // Drawbar, tank, other side: the side profile again, mirrored for the other side.
  const mirrored = a === 'other side' || a === 'tank';
  return mirrored ? `<g transform="translate(812 0) scale(-1 1)">${sideProfile(silhouette, p)}</g>` : sideProfile(silhouette, p);
}

function vehicleDrawing(spec: PhotoSpec, p: Paint): string {
  const angle = spec.angle.toLowerCase();
  const box = (inner: string, width = 800) => `<g transform="translate(${(PHOTO_WIDTH - width) / 2} 190)">${inner}</g>`;
  const exterior = (inner: string) => `<ellipse cx="480" cy="480" rx="400" ry="26" fill="#000" opacity="0.18"/>${inner}`;
  switch (angle) {
    case 'side':
      return exterior(box(sideProfile(spec.silhouette, p)));
    case 'front three-quarter':
      return exterior(`<g transform="translate(110 180) scale(0.92 0.98) skewY(-3)">${sideProfile(spec.silhouette, p)}</g>`);
    case 'rear three-quarter':
      return exterior(`<g transform="translate(850 200) scale(-0.92 0.98) skewY(3)">${sideProfile(spec.silhouette, p)}</g>`);
    case 'front':
      return exterior(box(faceView(spec.silhouette, p, false), 600));
    case 'rear':
      return exterior(box(faceView(spec.silhouette, p, true), 600));
    case 'interior':
    case 'dashboard':
    case 'odometer':
    case 'rear seats':
    case 'seat':
    case 'cockpit':
    case 'bed':
    case 'kitchen':
    case 'bathroom':
    case 'lounge':
      return box(interiorView(spec.angle, spec.silhouette, p));
    default:
      return exterior(box(detailView(spec.angle, spec.silhouette, p)));
  }
}

/** The SVG of one placeholder photo: studio backdrop, the vehicle, make/model/colour and the view. */
export function vehiclePhotoSvg(spec: PhotoSpec): string {
  const p = paintFor(spec.colourHex);
  // A backdrop that contrasts with the paint: darker behind light cars, lighter behind dark ones.
  const lightPaint = luminance(spec.colourHex) > 0.7;
  const wallTop = lightPaint ? '#9fb0c2' : '#e6ebf0';
  const wallBottom = lightPaint ? '#6f8296' : '#b7c2cd';
  const floor = lightPaint ? '#4b5563' : '#8c96a1';
  const title = `${spec.make} ${spec.model}`;
  const titleSize = title.length > 30 ? 34 : 42;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" viewBox="0 0 ${PHOTO_WIDTH} ${PHOTO_HEIGHT}">
<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${wallTop}"/><stop offset="1" stop-color="${wallBottom}"/></linearGradient>
<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${floor}"/><stop offset="1" stop-color="${shade(floor, -0.4)}"/></linearGradient></defs>
<rect width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" fill="url(#wall)"/>
<rect y="440" width="${PHOTO_WIDTH}" height="200" fill="url(#floor)"/>
<path d="M0 440 L960 440" stroke="#ffffff" stroke-opacity="0.35" stroke-width="2"/>
${vehicleDrawing(spec, p)}
<text x="${PHOTO_WIDTH / 2}" y="150" font-family="${FONT}" font-size="${titleSize}" font-weight="bold" fill="#0f172a" fill-opacity="0.85" text-anchor="middle">${escapeXml(title)}</text>
<circle cx="${PHOTO_WIDTH - 64}" cy="52" r="22" fill="${spec.colourHex}" stroke="#ffffff" stroke-width="3"/>
<text x="${PHOTO_WIDTH - 100}" y="62" font-family="${FONT}" font-size="28" fill="#0f172a" text-anchor="end">${escapeXml(spec.colour)}</text>
<text x="${PHOTO_WIDTH - 32}" y="${PHOTO_HEIGHT - 76}" font-family="${FONT}" font-size="26" fill="#ffffff" text-anchor="end">${escapeXml(spec.angle)}</text>
<text x="${PHOTO_WIDTH - 32}" y="${PHOTO_HEIGHT - 40}" font-family="${FONT}" font-size="20" fill="#ffffff" fill-opacity="0.8" text-anchor="end">Demo photo</text>
</svg>`;
}

export async function renderVehiclePhoto(spec: PhotoSpec): Promise<Buffer> {
  return sharp(Buffer.from(vehiclePhotoSvg(spec)))
    .jpeg({ quality: 78, mozjpeg: false })
    .toBuffer();
}

/**
 * Renders every photo not already stored, `concurrency` at a time. Keys are content addresses,
 * so an existing file is already the right picture.
 */
export async function renderPhotos(
  store: MediaStore,
  specs: Iterable<PhotoSpec>,
  options: { concurrency?: number } = {},
): Promise<{ written: number; skipped: number }> {
  const queue = [...specs];
  let written = 0;
  let skipped = 0;
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const spec = queue[next++];
      if (await store.exists(spec.key)) {
        skipped++;
        continue;
      }
      await store.put(spec.key, await renderVehiclePhoto(spec));
      written++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { written, skipped };
}

type LogoTheme = { primary: string; primaryForeground: string; accent: string; fontStack: 'sans' | 'serif' | 'condensed'; radius: number };

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter((w) => /^[\p{L}\p{N}]/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

/** A simple wordmark: a monogram badge and the dealer's name in its colours. */
export function logoSvg(name: string, theme: LogoTheme): string {
  const family =
    theme.fontStack === 'serif'
      ? "'DejaVu Serif', Georgia, 'Times New Roman', serif"
      : theme.fontStack === 'condensed'
        ? "'DejaVu Sans Condensed', 'Arial Narrow', 'Roboto Condensed', sans-serif"
        : FONT;
  const charWidth = theme.fontStack === 'condensed' ? 19 : 23;
  const width = Math.round(136 + name.length * charWidth);
  const height = 96;
  const monogramFill = luminance(theme.accent) > 0.5 ? '#111827' : '#ffffff';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(name)}">
<title>${escapeXml(name)}</title>
<rect width="${width}" height="${height}" rx="${Math.min(theme.radius * 2, 40)}" fill="${theme.primary}"/>
<circle cx="52" cy="48" r="32" fill="${theme.accent}"/>
<text x="52" y="59" font-family="${family}" font-size="30" font-weight="bold" fill="${monogramFill}" text-anchor="middle">${escapeXml(initials(name))}</text>
<text x="100" y="61" font-family="${family}" font-size="38" font-weight="bold" fill="${theme.primaryForeground}">${escapeXml(name)}</text>
</svg>`;
}
