import { contactFields, messageField, optInField, type FieldDef, type LeadSite, type LeadCar } from '../form-rules/fields';
import { CATEGORIES, SUBCATEGORIES } from '../form-rules/categories';
import { vehicleCategory } from '../form-rules/flow';
import { LeadForm } from './lead-form';

/**
 * The car page's forms (SPEC §2 Car page actions): enquire now, book a test drive (two steps) and
 * request photos. Each renders on its own route and inside a dialog (car-form-dialogs.tsx).
 */

export type CarFormProps = {
  site: LeadSite;
  car: LeadCar;
  /** False inside a dialog, whose title already names the form. */
  showHeading?: boolean;
};

/** SPEC §3 Lead form defaults that come from the car. */
export function carLeadDefaults(car: LeadCar): Record<string, string | number | null> {
  return {
    car_id: car.id,
    car_dealership_id: car.dealershipId,
    dealership_slug: car.dealershipSlug,
    // Left out when the car has no location: a blank location_id means a select left empty.
    ...(car.locationId === null ? {} : { location_id: car.locationId }),
    stock_number: car.stocknum,
    'Vehicle Make': car.make,
    'Vehicle Model': car.model,
    car_type: car.carType,
    vehicle_status: car.status,
  };
}

export function EnquiryForm({ site, car, submitLabel, showHeading = true }: CarFormProps & { submitLabel: string }) {
  return (
    <LeadForm
      site={site}
      steps={[
        {
          heading: 'Enquire Now',
          description: `Ask us about the ${car.name}.`,
          fields: [...contactFields(site), messageField(site), optInField],
        },
      ]}
      category={vehicleCategory(car.carType)}
      hidden={carLeadDefaults(car)}
      carType={car.carType}
      submitLabel={submitLabel}
      showHeading={showHeading}
    />
  );
}

const TEST_DRIVE_TIMES = ['Morning', 'Afternoon', 'Evening'];

/** Without a car (/book-test-drive) the visitor says which vehicle. */
export function TestDriveForm({ site, car, showHeading = true }: Omit<CarFormProps, 'car'> & { car: LeadCar | null }) {
  const when: FieldDef[] = [
    ...(car ? [] : [{ name: 'Vehicle Model', label: 'Vehicle you would like to drive', kind: 'text', required: true, wide: true } as const]),
    { name: 'preferred_date', label: 'Preferred date', kind: 'date' },
    {
      name: 'preferred_time',
      label: 'Preferred time',
      kind: 'select',
      options: TEST_DRIVE_TIMES.map((time) => ({ value: time, label: time })),
    },
    messageField(site, 'Comments', false),
  ];
  return (
    <LeadForm
      site={site}
      steps={[
        {
          heading: 'Your Details',
          description: car ? `Book a test drive of the ${car.name}.` : 'Book a test drive with our team.',
          fields: contactFields(site),
        },
        {
          heading: 'Choose a Time',
          description: 'Tell us when suits you and we will confirm your booking.',
          fields: when,
        },
      ]}
      category={CATEGORIES.testDrive}
      hidden={car ? carLeadDefaults(car) : {}}
      carType={car?.carType ?? null}
      successForm="test-drive"
      submitLabel="Book Test Drive"
      showHeading={showHeading}
    />
  );
}

export function RequestPhotosForm({ site, car, showHeading = true }: CarFormProps) {
  return (
    <LeadForm
      site={site}
      steps={[
        {
          heading: 'Request Photos',
          description: `We will send you more photos of the ${car.name}.`,
          fields: [...contactFields(site), messageField(site, 'Anything you would like to see?', false)],
        },
      ]}
      category={vehicleCategory(car.carType)}
      subcategory={SUBCATEGORIES.requestPhotos}
      hidden={carLeadDefaults(car)}
      carType={car.carType}
      submitLabel="Request Photos"
      showHeading={showHeading}
    />
  );
}
