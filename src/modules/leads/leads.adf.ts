/**
 * ADF/XML (Auto-lead Data Format 1.0), the lead format dealer CRMs import. Pure: the lead and the
 * car in, the XML document out.
 */

export type AdfInput = {
  leadId: string;
  createdAt: Date;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  postcode: string | null;
  message: string | null;
  category: string;
  subcategory: string | null;
  dealershipName: string;
  websiteName: string;
  car: { year: number; make: string; model: string; stocknum: string; vin: string | null; carType: string; price: number } | null;
};

export function escapeXml(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const element = (name: string, value: string | number | null | undefined, attributes = '') =>
  value === null || value === undefined || value === '' ? '' : `<${name}${attributes}>${escapeXml(String(value))}</${name}>`;

export function buildAdf(lead: AdfInput): string {
  const car = lead.car;
  const vehicle = car
    ? `<vehicle interest="buy" status="${car.carType === 'new' ? 'new' : 'used'}">${element('year', car.year)}${element('make', car.make)}${element('model', car.model)}${element('vin', car.vin)}${element('stock', car.stocknum)}${car.price > 0 ? `<price type="asking" currency="AUD">${car.price}</price>` : ''}</vehicle>`
    : '';
  const comments = [lead.category, lead.subcategory, lead.message].filter(Boolean).join(' - ');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?adf version="1.0"?>',
    '<adf><prospect status="new">',
    `<id sequence="1" source="Website">${escapeXml(lead.leadId)}</id>`,
    `<requestdate>${lead.createdAt.toISOString()}</requestdate>`,
    vehicle,
    '<customer><contact>',
    element('name', lead.firstName, ' part="first"'),
    element('name', lead.lastName, ' part="last"'),
    element('email', lead.email),
    element('phone', lead.phone),
    lead.postcode ? `<address>${element('postalcode', lead.postcode)}</address>` : '',
    '</contact>',
    element('comments', comments),
    '</customer>',
    `<vendor>${element('vendorname', lead.dealershipName)}</vendor>`,
    `<provider>${element('name', lead.websiteName, ' part="full"')}</provider>`,
    '</prospect></adf>',
  ].join('');
}
