import { cn } from '@/components/ui/cn';

/**
 * Dealer content as HTML. Only ever pass the output of renderMarkdown/renderFaq (content.render.ts),
 * which sanitises it with an allow-list; that is what makes the innerHTML safe.
 */
export function ContentBody({ html, className }: { html: string; className?: string }) {
  if (!html.trim()) return null;
  return <div className={cn('site-prose', className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
