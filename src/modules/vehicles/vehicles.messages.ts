/** What the vehicle lookup and the estimate tell the visitor (client-safe, no zod: the forms import it). */

export const VEHICLE_MESSAGES = {
  lookupWhat: 'Please enter a registration number and state, or a VIN.',
  rego: 'A registration number is 1 to 9 letters and digits.',
  registrationOffline: 'We can’t look up registrations right now. Please enter your car’s make, model and year.',
  notFound: 'We couldn’t find that vehicle. Please enter its make, model and year.',
  providerDown: 'The vehicle lookup is not answering just now. Please enter your car’s make, model and year.',
  notEnoughData: 'We don’t have enough recent sales of this model to give a fair figure. The dealer will call you with a valuation.',
} as const;

/** 'model', 'model and year', 'make, model and year'. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * What a lookup that found the car says: 'Found: 2019 Toyota Corolla. Please check the details
 * below.', or, when it could not tell everything, the details still missing by name: 'Found a 2019
 * Toyota. Please add the model.' (issue 31: not 'the model and year' when the year was found).
 */
export function lookupFoundMessage(found: string, missing: readonly ('make' | 'model' | 'year')[]): string {
  return missing.length === 0 ? `Found: ${found}. Please check the details below.` : `Found a ${found}. Please add the ${listed(missing)}.`;
}
