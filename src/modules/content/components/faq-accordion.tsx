'use client';

import { Accordion } from 'radix-ui';
import { ChevronDownIcon } from '@/components/ui/icons';
import { useHydrated } from '@/components/ui/use-hydrated';
import type { FaqItem } from '../content.render';

/**
 * FAQ questions as an accordion. The server HTML is <details>/<summary> (works without
 * JavaScript, every answer in the page for search engines); once hydrated it is a Radix Accordion
 * with heading-wrapped buttons, aria-expanded and arrow-key movement between questions.
 * `answerHtml` is sanitised by renderFaq.
 */

const item = 'rounded-site border border-gray-200 bg-white shadow-sm';
const trigger =
  'group flex w-full cursor-pointer items-center justify-between gap-4 rounded-site px-5 py-4 text-left text-lg font-semibold text-gray-900 hover:bg-gray-50 [&::-webkit-details-marker]:hidden';
const answer = 'px-5 pb-5';

export function FaqAccordion({ items, idPrefix = 'faq' }: { items: FaqItem[]; idPrefix?: string }) {
  const hydrated = useHydrated();

  if (!hydrated) {
    return (
      <div className="space-y-3">
        {items.map((faq, index) => (
          <details key={index} className={`${item} group`}>
            <summary className={`${trigger} list-none`}>
              <h3 className="flex-1">{faq.question}</h3>
              <ChevronDownIcon size={20} className="shrink-0 transition-transform group-open:rotate-180" />
            </summary>
            <div className={answer}>
              <div className="site-prose" dangerouslySetInnerHTML={{ __html: faq.answerHtml }} />
            </div>
          </details>
        ))}
      </div>
    );
  }

  return (
    <Accordion.Root type="multiple" className="space-y-3">
      {items.map((faq, index) => (
        <Accordion.Item key={index} value={`${idPrefix}-${index}`} className={item}>
          <Accordion.Header asChild>
            <h3>
              <Accordion.Trigger className={trigger}>
                {faq.question}
                <ChevronDownIcon
                  size={20}
                  className="shrink-0 transition-transform group-data-[state=open]:rotate-180"
                />
              </Accordion.Trigger>
            </h3>
          </Accordion.Header>
          <Accordion.Content className={answer}>
            <div className="site-prose" dangerouslySetInnerHTML={{ __html: faq.answerHtml }} />
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
