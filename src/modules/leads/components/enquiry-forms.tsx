import { contactFields, messageField, optInField, type FieldDef, type LeadSite, VALUATION_FIELD_NAMES, valuationVehicleFields, dealershipField, locationField, options, sourceField, type LeadCar, type LeadLocation, vehiclePhotosField, cvField } from '../form-rules/fields';
import { CATEGORIES, ENQUIRY_TYPES, SUBCATEGORIES } from '../form-rules/categories';
import { carLeadDefaults } from './car-forms';
import { LeadForm } from './lead-form';

/**
 * The dealer's enquiry forms off the car page: general contact, service, parts, careers,
 * photography, trade-in valuation and sell my car. Plain data in, so server pages render them.
 */

type SiteFormProps = {
  site: LeadSite;
  /** The website's locations the visitor may choose from (a select when there are two or more). */
  locations: LeadLocation[];
  /** 'Where did you hear about us' options (website configuration leads.sourceOptions). */
  sourceOptions: string[];
  submitLabel: string;
  showHeading?: boolean;
};

/** The one location's id when there is no choice to make. */
function onlyLocation(locations: LeadLocation[]): Record<string, number> {
  return locations.length === 1 ? { location_id: locations[0]!.id } : {};
}

const vehicleFields: FieldDef[] = [
  { name: 'Vehicle Make', label: 'Vehicle make', kind: 'text' },
  { name: 'Vehicle Model', label: 'Vehicle model', kind: 'text' },
  { name: 'year', label: 'Year', kind: 'year' },
  { name: 'Rego', label: 'Registration (Rego)', kind: 'rego' },
];

export function GeneralContactForm({
  site,
  locations,
  sourceOptions,
  submitLabel,
  showHeading = true,
  defaultCategory = CATEGORIES.general,
  showCategorySelect = true,
  fixedLocationId = null,
  dealerships = [],
}: SiteFormProps & {
  /** The dealerships to prefer (a select when there are two or more; website configuration leads.showDealershipSelect). */
  dealerships?: { slug: string; name: string }[];
  /** Preselected enquiry type (e.g. 'Service Enquiry' on a service location's contact page). */
  defaultCategory?: string;
  /** Website configuration leads.showCategorySelect; without it every lead is defaultCategory. */
  showCategorySelect?: boolean;
  /** A location's own contact page: its leads go to it, with no location select. */
  fixedLocationId?: number | null;
}) {
  const fields: FieldDef[] = [
    ...contactFields(site),
    ...(showCategorySelect
      ? [{ name: 'category', label: 'Enquiry type', kind: 'select', required: true, options: options(ENQUIRY_TYPES) } as const]
      : []),
    ...(fixedLocationId ? [] : locationField(locations)),
    ...dealershipField(dealerships),
    ...sourceField(sourceOptions),
    messageField(site),
    optInField,
  ];
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Send us a message', description: 'We will get back to you as soon as we can.', fields }]}
      category={defaultCategory}
      initialValues={showCategorySelect ? { category: defaultCategory } : undefined}
      hidden={fixedLocationId ? { location_id: fixedLocationId } : onlyLocation(locations)}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

export function ServiceForm({ site, locations, submitLabel, showHeading = true }: SiteFormProps) {
  const fields: FieldDef[] = [
    ...contactFields(site),
    ...vehicleFields,
    { name: 'odometer', label: 'Odometer (km)', kind: 'km' },
    { name: 'preferred_date', label: 'Preferred date', kind: 'date' },
    ...locationField(locations, 'Service centre'),
    messageField(site, 'What does your vehicle need?'),
  ];
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Book a Service', description: 'Tell us about your vehicle and when suits you.', fields }]}
      category={CATEGORIES.service}
      hidden={onlyLocation(locations)}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

export function PartsForm({ site, locations, submitLabel, showHeading = true }: SiteFormProps) {
  const fields: FieldDef[] = [
    ...contactFields(site),
    ...vehicleFields,
    ...locationField(locations, 'Parts department'),
    messageField(site, 'Which parts or accessories are you after?'),
  ];
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Parts and Accessories', description: 'Our parts team will check stock and price for you.', fields }]}
      category={CATEGORIES.parts}
      hidden={onlyLocation(locations)}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

export function CareersForm({ site, submitLabel, showHeading = true, position }: Omit<SiteFormProps, 'locations' | 'sourceOptions'> & { position?: string }) {
  const fields: FieldDef[] = [
    ...contactFields(site),
    { name: 'position', label: 'Position of interest', kind: 'text', wide: true },
    messageField(site, 'Tell us about yourself'),
    cvField,
  ];
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Careers Enquiry', description: 'Send us your details and we will be in touch.', fields }]}
      category={CATEGORIES.careers}
      initialValues={position ? { position } : undefined}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

export function PhotographyForm({ site, locations, sourceOptions, submitLabel, showHeading = true }: SiteFormProps) {
  const fields: FieldDef[] = [...contactFields(site), ...locationField(locations), ...sourceField(sourceOptions), messageField(site)];
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Photography Enquiry', description: 'Tell us what you need photographed.', fields }]}
      category={CATEGORIES.general}
      subcategory={SUBCATEGORIES.photography}
      hidden={onlyLocation(locations)}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

/**
 * Trade-in valuation and sell my car: your details first (the lead is created with them), then the
 * vehicle. With a car (/cars/trade-in?car_id=…) the lead is about trading in towards that car.
 */
export function ValuationForm({
  site,
  kind,
  car = null,
  showHeading = true,
}: {
  site: LeadSite;
  kind: 'trade-in' | 'sell-my-car';
  car?: LeadCar | null;
  showHeading?: boolean;
}) {
  const vehicle = valuationVehicleFields(site);
  const tradeIn = kind === 'trade-in';
  // The car being bought keeps the lead form's car keys ('Vehicle Make'…); the visitor's own vehicle
  // is rego, state, make, model, year and km, as a valuation records it.
  const hidden = car ? carLeadDefaults(car) : {};
  return (
    <LeadForm
      site={site}
      steps={[
        {
          heading: 'Your Details',
          description: tradeIn
            ? car
              ? `Get a valuation for your trade-in towards the ${car.name}.`
              : 'Get a valuation for your trade-in.'
            : 'Tell us who you are and we will make you an offer.',
          fields: contactFields(site),
        },
        {
          heading: 'Your Vehicle',
          description: 'Look your car up by its rego or VIN, or type its details. The more we know, the more accurate our valuation.',
          fields: [...vehicle, vehiclePhotosField],
          lookup: 'vehicle',
        },
      ]}
      category={tradeIn ? CATEGORIES.tradeIn : CATEGORIES.sellMyCar}
      hidden={hidden}
      carType={null}
      valuationFields={VALUATION_FIELD_NAMES}
      submitLabel={tradeIn ? 'Get Your Valuation' : 'Submit'}
      showHeading={showHeading}
    />
  );
}
