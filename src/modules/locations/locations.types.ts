/** SPEC §3 Opening-hours entry. weekday 0 is Sunday. */
export type OpeningHoursEntry = {
  weekday: number;
  status: 'Open' | 'Closed';
  /** 'HH:MM' 24-hour local time. */
  open: string | null;
  close: string | null;
};

export type SocialLinks = Partial<Record<'facebook' | 'instagram' | 'youtube' | 'linkedin' | 'tiktok', string>>;

/** Per-location behaviour the spec names for 'one location' or 'some locations'. */
export type LocationSettings = {
  /** Closed days read 'By appointment only'; the holiday dialog says site visits are by appointment only. */
  appointmentOnly?: boolean;
  /** Weekend hours are replaced by an 'Enquire Now' link to this location's contact-us page. */
  weekendEnquiryLink?: boolean;
};

export const LOCATION_TYPES = ['sales', 'service', 'parts', 'service-and-parts'] as const;

/** How locations are grouped on pages and in forms (SPEC §3). */
export const LOCATION_GROUPS = ['primary', 'sales', 'service', 'parts', 'service-and-parts', 'all'] as const;
export type LocationGroup = (typeof LOCATION_GROUPS)[number];

export type LocationType = (typeof LOCATION_TYPES)[number];

/** Holiday hours of one location on one local date, whichever entry shape it came in. */
export type SpecialHoursEntry = {
  date: string;
  status: 'Open' | 'Closed';
  locationId: number;
  /** 'HH:MM' local time; null when closed. */
  startHour: string | null;
  endHour: string | null;
  name: string | null;
};

/** A visible location as pages receive it. Client-safe (no lead e-mail). */
export type LocationSummary = {
  id: number;
  dealershipId: number;
  dealershipSlug: string;
  dealershipName: string;
  name: string;
  slug: string;
  /** /our-locations/{slug} */
  path: string;
  /** /contact-us/{dealership slug} */
  contactPath: string;
  position: number;
  primary: boolean;
  /** '' in the database reads as 'sales'. */
  locationType: LocationType;
  locationSubtypes: string[];
  dealerLicenseNumber: string | null;
  address: {
    street: string;
    city: string;
    state: string;
    postcode: string;
    country: 'AU' | 'NZ' | 'US';
    /** One line: street, city state postcode. */
    full: string;
    lat: number | null;
    long: number | null;
    placeUrl: string | null;
  };
  phone: string;
  landlinePhone: string | null;
  mobile: string | null;
  social: SocialLinks;
  /** IANA zone the hours are kept in, from the location's state (see locations.zones.ts). */
  timeZone: string;
  openingHours: OpeningHoursEntry[];
  settings: LocationSettings;
  /** Only when the average rating is at least REVIEWS_MIN_RATING. */
  reviews: { count: number; averageRating: number } | null;
};
