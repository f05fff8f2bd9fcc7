import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Container } from '@/components/ui/container';
import { PageHeader } from '@/components/ui/page-header';
import { demoPagesVisible } from '@/lib/demo-access';
import { listOutbox } from '@/modules/leads/leads.queries';
import { requireTenant } from '@/modules/tenancy/tenancy.request';

/**
 * /dev/outbox (demo mode, and only for this machine's clients unless DEMO_MODE=1: demo-access.ts):
 * the lead emails and webhooks of this website as the outbox holds them, so a demo without SMTP
 * shows what the dealer would receive.
 */

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Lead outbox', robots: { index: false, follow: false } };

/** A webhook's JSON body indented for reading (as sent when it is not JSON). */
function readableJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export default async function OutboxPage() {
  if (!(await demoPagesVisible())) notFound();
  const tenant = await requireTenant();
  const rows = await listOutbox(tenant);
  return (
    <>
      <PageHeader title="Lead outbox" lead={`The latest ${rows.length} lead deliveries and phone codes of ${tenant.name} (demo mode).`} breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'Lead outbox' }]} />
      <Container className="py-8">
        {rows.length === 0 ? (
          <p className="rounded-site border border-dashed border-gray-300 bg-gray-50 p-6 text-gray-700">No leads delivered yet.</p>
        ) : (
          <ol className="space-y-6" aria-label="Outbox">
            {rows.map((row) => (
              <li key={row.id} className="rounded-site border border-gray-200 p-4" data-lead-id={row.leadId ?? undefined} data-channel={row.channel} data-status={row.status}>
                <p className="text-sm text-gray-600">
                  #{row.id} · {row.channel} · <strong>{row.status}</strong> · {row.attempts} attempt{row.attempts === 1 ? '' : 's'} · {row.createdAt.toISOString()}
                  {row.lastError ? ` · last error: ${row.lastError}` : ''}
                </p>
                {row.payload.kind === 'email' ? (
                  <>
                    <h2 className="mt-2 font-semibold">{row.payload.subject}</h2>
                    <p className="text-sm">To: {row.payload.to}</p>
                    {Object.entries(row.payload.headers ?? {}).map(([name, value]) => (
                      <p key={name} className="break-all text-sm" data-header={name}>
                        {name}: {value}
                      </p>
                    ))}
                    <pre className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-3 text-sm">{row.payload.text}</pre>
                    {row.payload.adf ? (
                      <details className="mt-2">
                        <summary className="cursor-pointer text-sm">ADF/XML attachment</summary>
                        <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-3 text-xs">{row.payload.adf}</pre>
                      </details>
                    ) : null}
                  </>
                ) : row.payload.kind === 'webhook' ? (
                  <>
                    <h2 className="mt-2 font-semibold">Webhook to the dealer&apos;s system</h2>
                    <p className="text-sm">
                      POST {row.payload.url}, signed with the dealership&apos;s secret (X-Lead-Signature)
                      {row.deliveredAt ? `, delivered at ${row.deliveredAt.toISOString()}` : ''}
                    </p>
                    <pre className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-3 text-xs">{readableJson(row.payload.body)}</pre>
                  </>
                ) : (
                  <>
                    <p className="mt-2 text-sm">
                      SMS to {row.payload.to} from {row.payload.from}
                    </p>
                    <pre className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-3 text-sm" data-sms-to={row.payload.to}>
                      {row.payload.body}
                    </pre>
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
      </Container>
    </>
  );
}
