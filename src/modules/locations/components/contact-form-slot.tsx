import { telHref } from '@/modules/tenancy/tenancy.links';

type Props = { phone: string; dealerName: string; children?: React.ReactNode };

/** The contact pages' 'Get in touch' section: the dealer's phone and, as children, the general contact form. */
export function ContactFormSlot({ phone, dealerName, children }: Props) {
  const href = telHref(phone);
  return (
    <section id="contact-form" data-slot="general-contact-form" aria-labelledby="contact-form-heading" className="rounded-site border border-gray-200 bg-white p-5 md:p-6">
      <h2 id="contact-form-heading" className="text-xl font-bold text-gray-900">
        Get in touch with {dealerName}
      </h2>
      <p className="mt-2 text-gray-700">
        {href ? (
          <>
            Call us on{' '}
            <a href={href} className="font-semibold text-brand-text underline underline-offset-2">
              {phone}
            </a>{' '}
            or visit one of our locations below.
          </>
        ) : (
          'Visit one of our locations below.'
        )}
      </p>
      {children ? <div className="mt-6">{children}</div> : null}
    </section>
  );
}
