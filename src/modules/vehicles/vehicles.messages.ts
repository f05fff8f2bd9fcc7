/** What the vehicle lookup and the estimate tell the visitor (client-safe, no zod: the forms import it). */

export const VEHICLE_MESSAGES = {
  lookupWhat: 'Please enter a registration number and state, or a VIN.',
  rego: 'A registration number is 1 to 9 letters and digits.',
  registrationOffline: 'We can’t look up registrations right now. Please enter your car’s make, model and year.',
  notFound: 'We couldn’t find that vehicle. Please enter its make, model and year.',
  providerDown: 'The vehicle lookup is not answering just now. Please enter your car’s make, model and year.',
  notEnoughData: 'We don’t have enough recent sales of this model to give a fair figure. The dealer will call you with a valuation.',
} as const;
