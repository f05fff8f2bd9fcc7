/** The checkout's messages, without zod: the checkout pages' browser code imports them (checkout.validation re-exports them). */

export const CHECKOUT_MESSAGES = {
  termsRequired: 'Please accept the terms to continue.',
  notEligible: 'Sorry, this car can no longer be reserved online. Please contact the dealer.',
  carTaken: 'Sorry, someone else is reserving this car right now. It may become available again in a few minutes.',
  takenWhilePaying: 'Sorry, this car was reserved by someone else while you were paying. Your card has not been charged.',
  expired: 'Your reservation time ran out before the payment was completed. The car has been released; you can start again if it is still available.',
  unavailable: 'Online reservations are not available on this website just now. Please contact the dealer.',
  providerFailed: 'We could not reach the payment provider. Your card has not been charged. Please try again in a minute.',
  notPending: 'This reservation is no longer waiting for a payment.',
  cannotRefund: 'This reservation has no deposit to refund or hold to cancel.',
  tooManyStarts: (wait: string) => `Too many reservations from your connection. Please try again in ${wait}, or call us.`,
  tooManyCards: (wait: string) => `Too many card attempts. Please try again in ${wait}, or call us.`,
} as const;

/** The card messages Stripe shows for the same cases (the sandbox mirrors them). */
export const CARD_MESSAGES = {
  number: 'Your card number is incorrect.',
  expiry: "Your card's expiration date is invalid.",
  expired: 'Your card has expired.',
  cvc: "Your card's security code is invalid.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  authenticationFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;
