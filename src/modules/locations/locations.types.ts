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
