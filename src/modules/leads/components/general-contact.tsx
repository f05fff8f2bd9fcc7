import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getLeadSite, listLeadLocations, listLeadDealerships } from '../leads.form-context';
import { CATEGORIES } from '../form-rules/categories';
import { GeneralContactForm } from './enquiry-forms';

/**
 * The general contact form with everything it needs loaded: drop it on /contact (all locations
 * to choose from) or /contact-us/{dealer-slug} (pass that location's id).
 */
export async function GeneralContactSection({
  tenant,
  locationId = null,
  defaultCategory = CATEGORIES.general,
  showHeading = true,
}: {
  tenant: Tenant;
  locationId?: number | null;
  defaultCategory?: string;
  showHeading?: boolean;
}) {
  const { leads } = tenant.config;
  const [site, locations, dealerships] = await Promise.all([
    getLeadSite(tenant),
    listLeadLocations(tenant),
    leads.showDealershipSelect ? listLeadDealerships(tenant) : [],
  ]);
  return (
    <GeneralContactForm
      site={site}
      locations={leads.showLocationSelect ? locations : []}
      sourceOptions={leads.sourceOptions}
      submitLabel={leads.enquirySubmitLabel}
      showHeading={showHeading}
      defaultCategory={defaultCategory}
      showCategorySelect={leads.showCategorySelect}
      dealerships={dealerships}
      fixedLocationId={locations.some((location) => location.id === locationId) ? locationId : null}
    />
  );
}
