import { Container } from '@/components/ui/container';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getLeadSite } from '../leads.form-context';
import { CareersForm } from './enquiry-forms';

/** The careers enquiry under the /careers and /current-positions listings. */
export async function CareersEnquirySection({ tenant }: { tenant: Tenant }) {
  const site = await getLeadSite(tenant);
  return (
    <section aria-label="Careers enquiry" className="border-t border-gray-200 bg-gray-50">
      <Container size="narrow" className="py-10 md:py-14">
        <div className="rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8">
          <CareersForm site={site} submitLabel={tenant.config.leads.enquirySubmitLabel} />
        </div>
      </Container>
    </section>
  );
}
