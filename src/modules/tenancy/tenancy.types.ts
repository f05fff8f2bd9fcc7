import type { WebsiteConfig } from './tenancy.config';

/** The website a request is for. Every query and command takes it first. */
export type Tenant = {
  id: number;
  slug: string;
  name: string;
  template: 'default' | 'override';
  phone: string;
  logoUrl: string | null;
  url: string;
  city: string;
  state: string;
  overrideCity: string | null;
  dealershipGroup: string | null;
  manufacturer: { id: number; slug: string; displayName: string } | null;
  config: WebsiteConfig;
};

export type NavigationItem = {
  id: number;
  name: string;
  url: string;
  dropdownItems: NavigationItem[];
};

export type Navigation = { header: NavigationItem[]; footer: NavigationItem[] };

export type DemoSite = { slug: string; name: string; host: string; locale: string; city: string; state: string };
